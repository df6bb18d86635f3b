package dev.baton.application.service.worker;

import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes over the entries of consumers that went silent for a whole lease. It is a step of the fetcher's turn, not a
 * loop of its own: a pass reclaims into slots the fetcher holds already ({@link #runOnce}), so that reclaiming never
 * waits behind a blocking lease and never takes more jobs than this worker has room for. A pass is due once per
 * {@code interval}, like a loop's. Every reclaimed entry is a suspect, which runs alone ({@link Suspects}): the worker
 * takes one at a time, only while it holds none, and stays due while there may be more, so that the next one comes
 * as soon as the last one finished. Other workers take the rest meanwhile.
 * Poison among them is dead-lettered by the triage, like any delivery. A paused queue is not reclaimed from: its
 * abandoned entries wait, pending, until it is resumed.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private final QueueMaintenance maintenance;
    private final List<QueueName> queues;
    private final ConsumerName consumer;
    private final Duration lease;
    private final Suspects suspects;
    private final Dispatcher dispatcher;
    private final PausedQueues pauses;
    private final MaintenanceObserver observer;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    /** When the next pass falls due, by {@link #nanoTime}; only the fetcher's thread reads and writes these. */
    private long nextDue;
    private boolean due;

    /**
     * @param interval how often a pass falls due, the first time one interval from now
     * @param nanoTime the ticker, {@link System#nanoTime} but in tests
     */
    Recovery(QueueMaintenance maintenance, List<QueueName> queues, ConsumerName consumer, Duration lease,
             Suspects suspects, Dispatcher dispatcher, PausedQueues pauses, MaintenanceObserver observer,
             Duration interval, LongSupplier nanoTime) {
        this.maintenance = maintenance;
        this.queues = List.copyOf(queues);
        this.consumer = consumer;
        this.lease = lease;
        this.suspects = suspects;
        this.dispatcher = dispatcher;
        this.pauses = pauses;
        this.observer = observer;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        this.nextDue = nanoTime.getAsLong() + intervalNanos;
    }

    /** What a pass did: entries reclaimed (and dispatched), and entries dropped as their data had vanished. */
    record Recovered(int reclaimed, int vanished) {
        static final Recovered NOTHING = new Recovered(0, 0);
    }

    /**
     * When a pass is due and this worker holds no suspect, takes over one abandoned entry into one of the
     * {@code available} slots the caller holds and dispatches it; a queue whose reclaim fails is tried again at the
     * next pass. A pass that reclaimed one stays due: the next one comes once this suspect has run.
     *
     * @return what it reclaimed: at most one delivery, which now holds one of the slots
     */
    Recovered runOnce(int available) {
        if (available == 0 || !suspects.mayTakeIn() || !takeDue()) {
            return Recovered.NOTHING;
        }
        int vanished = 0;
        for (QueueName queue : queues) {
            if (pauses.isPaused(queue)) {
                continue;
            }
            try {
                Reclaimed taken = maintenance.reclaimAbandoned(queue, consumer, lease, 1);
                vanished += dropped(queue, taken);
                if (!taken.deliveries().isEmpty()) {
                    due = true; // more may be waiting: the next one once this suspect has run
                    observer.reclaimed(queue, taken.deliveries().size());
                    LOG.info("reclaimed abandoned entries consumer={} queue={} count={}", consumer, queue,
                            taken.deliveries().size());
                    dispatcher.dispatch(taken.deliveries());
                    return new Recovered(taken.deliveries().size(), vanished);
                }
            } catch (RuntimeException e) {
                LOG.warn("reclaim failed, retrying at the next recovery consumer={} queue={}: {}", consumer, queue,
                        e.toString());
            }
        }
        return new Recovered(0, vanished);
    }

    /** Whether a pass is due, the interval counted from the last time one fell due; from now on it is not. */
    private boolean takeDue() {
        long now = nanoTime.getAsLong();
        if (now - nextDue >= 0) {
            due = true;
            nextDue += (1 + (now - nextDue) / intervalNanos) * intervalNanos;
        }
        boolean was = due;
        due = false;
        return was;
    }

    private int dropped(QueueName queue, Reclaimed taken) {
        if (!taken.vanished().isEmpty()) {
            observer.vanished(queue, taken.vanished().size());
            LOG.warn("pending entries had lost their data and were dropped consumer={} queue={} ids={}", consumer,
                    queue, taken.vanished());
        }
        return taken.vanished().size();
    }
}
