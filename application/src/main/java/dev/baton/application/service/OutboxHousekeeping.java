package dev.baton.application.service;

import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TransportMemory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox relay's housekeeping, on a thread of its own so that publishing never waits behind it: once per poll
 * interval it looks for a loss of the transport ({@link TransportMemory}), making the published rows whose jobs have
 * no terminal outcome unpublished again, and forgets published rows whose jobs ended. Both read the published rows,
 * which the relay's thread, publishing batch after batch under load, must not wait for.
 */
final class OutboxHousekeeping implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OutboxHousekeeping.class);
    /** Batches of ended rows forgotten per look: enough to keep pace with a busy relay, and a bound on a look. */
    static final int FORGET_BATCHES = 20;

    private final JobOutbox outbox;
    private final TransportMemory memory;
    private final Clock clock;
    private final int batchSize;
    private final Duration interval;
    private final MaintenanceObserver observer;
    private final CountDownLatch closed = new CountDownLatch(1);
    /**
     * Counted down once a look recorded the transport's epoch. The first record of an epoch finds every published row
     * outstanding, as after a loss: a relay that published before it would publish those jobs again.
     */
    private final CountDownLatch epochRecorded = new CountDownLatch(1);
    private final Thread thread;
    private final FailureStreak failures = new FailureStreak();

    OutboxHousekeeping(JobOutbox outbox, TransportMemory memory, Clock clock, int batchSize, Duration interval,
                       MaintenanceObserver observer) {
        this.outbox = outbox;
        this.memory = memory;
        this.clock = clock;
        this.batchSize = batchSize;
        this.interval = interval;
        this.observer = observer;
        this.thread = new Thread(this::keepHouseUntilClosed, "baton-outbox-housekeeping");
        thread.setDaemon(true);
    }

    /** Makes the published rows whose jobs have no terminal outcome unpublished if the transport lost data. */
    void republishIfLost() {
        int republished = outbox.republishAfterLoss(memory.epoch());
        epochRecorded.countDown();
        if (republished > 0) {
            LOG.warn("the transport may have lost jobs (its epoch changed): publishing again jobs={}", republished);
            observer.outboxRepublished(republished);
        }
    }

    /**
     * Forgets ended rows a batch at a time while batches forget some, up to {@link #FORGET_BATCHES} of them: once a
     * second, that keeps pace with a relay publishing that many batches a second, and bounds the time a look takes.
     */
    void forgetEnded() {
        for (int batch = 0; batch < FORGET_BATCHES; batch++) {
            if (outbox.forgetEnded(batchSize) == 0) {
                return;
            }
        }
    }

    void start() {
        thread.start();
    }

    /** Waits until a look recorded the transport's epoch. @return whether one did within {@code timeout} */
    boolean awaitEpochRecorded(Duration timeout) throws InterruptedException {
        return epochRecorded.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Looks once per interval of the clock, waking once per interval to see whether one has passed. */
    private void keepHouseUntilClosed() {
        Instant next = Instant.MIN;
        do {
            if (!clock.instant().isBefore(next)) {
                next = clock.instant().plus(interval);
                keepHouse();
            }
        } while (!awaitClose());
    }

    private void keepHouse() {
        try {
            republishIfLost();
            forgetEnded();
        } catch (RuntimeException e) {
            if (closed.getCount() == 0) {
                return; // closed while it looked: the failure is the interruption's
            }
            // it must outlive an outage of PostgreSQL or Redis: the next look tries again
            LOG.atLevel(failures.failed()).log("the outbox's housekeeping failed, trying again every {}: {}", interval,
                    e.toString());
            return;
        }
        int failed = failures.succeeded();
        if (failed > 0) {
            LOG.info("the outbox's housekeeping works again after {} failed looks", failed);
        }
    }

    private boolean awaitClose() {
        try {
            return closed.await(interval.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            return true;
        }
    }

    /** Stops keeping house, and returns once the thread ended (or {@link OutboxRelay#CLOSE_WAIT} passed). */
    @Override
    public void close() {
        closed.countDown();
        thread.interrupt();
        Threads.join(thread, OutboxRelay.CLOSE_WAIT, "a look it was taking goes on until its statement ends");
    }
}
