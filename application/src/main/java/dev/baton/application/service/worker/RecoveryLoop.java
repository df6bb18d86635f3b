package dev.baton.application.service.worker;

import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes over the entries of consumers that went silent for a whole lease. A pass only marks recovery as due; the
 * fetcher then reclaims into slots it holds already ({@link #reclaimIfDue}), so that reclaiming never waits behind a
 * blocking lease and never takes more jobs than this worker has room for. Every reclaimed entry is a suspect, which
 * runs alone ({@link Isolation}): the worker takes one at a time, only while it holds none, and stays due while there
 * may be more, so that the next one comes as soon as the last one finished. Other workers take the rest meanwhile.
 * Poison among them is dead-lettered by the triage, like any delivery.
 */
final class RecoveryLoop implements BackgroundLoop {
    private static final Logger LOG = LoggerFactory.getLogger(RecoveryLoop.class);

    private final QueueMaintenance maintenance;
    private final List<QueueName> queues;
    private final ConsumerName consumer;
    private final Duration lease;
    private final InFlight inFlight;
    private final Dispatcher dispatcher;
    private final MaintenanceObserver observer;
    private final AtomicBoolean due = new AtomicBoolean();

    RecoveryLoop(QueueMaintenance maintenance, List<QueueName> queues, ConsumerName consumer, Duration lease,
                 InFlight inFlight, Dispatcher dispatcher, MaintenanceObserver observer) {
        this.maintenance = maintenance;
        this.queues = List.copyOf(queues);
        this.consumer = consumer;
        this.lease = lease;
        this.inFlight = inFlight;
        this.dispatcher = dispatcher;
        this.observer = observer;
    }

    @Override
    public void runOnce() {
        due.set(true);
    }

    /**
     * When recovery is due and this worker holds no suspect, takes over one abandoned entry into one of the
     * {@code available} slots the caller holds and dispatches it; a queue whose reclaim fails is tried again at the
     * next pass.
     *
     * @return how many of the slots now belong to reclaimed deliveries: zero or one
     */
    int reclaimIfDue(int available) {
        if (available == 0 || inFlight.holdsSuspect() || !due.getAndSet(false)) {
            return 0;
        }
        for (QueueName queue : queues) {
            try {
                if (reclaim(queue, 1) > 0) {
                    due.set(true); // more may be waiting: the next one once this suspect has run
                    return 1;
                }
            } catch (RuntimeException e) {
                LOG.warn("reclaim failed, retrying at the next recovery consumer={} queue={}: {}", consumer, queue,
                        e.toString());
            }
        }
        return 0;
    }

    private int reclaim(QueueName queue, int max) {
        Reclaimed taken = maintenance.reclaimAbandoned(queue, consumer, lease, max);
        if (!taken.vanished().isEmpty()) {
            observer.vanished(queue, taken.vanished().size());
            LOG.warn("pending entries had lost their data and were dropped consumer={} queue={} ids={}", consumer,
                    queue, taken.vanished());
        }
        int count = taken.deliveries().size();
        if (count > 0) {
            observer.reclaimed(queue, count);
            LOG.info("reclaimed abandoned entries consumer={} queue={} count={}", consumer, queue, count);
            dispatcher.dispatch(taken.deliveries());
        }
        return count;
    }
}
