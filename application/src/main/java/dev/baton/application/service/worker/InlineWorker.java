package dev.baton.application.service.worker;

import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.WorkerCounters;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.Lease;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;

/**
 * A worker without threads, built by {@link WorkerService#inline}: each call runs on the caller's thread and returns
 * only when what it took is finished. A delivery takes the threaded worker's path through the same rooms: triage,
 * the ledger's execution, the retry policy, the dead letters and the acknowledgement.
 *
 * <p>What needs a clock running by itself is left out: nothing interrupts a handler at the job timeout (the caller's
 * thread is the handler's), leases are not extended, entries left pending (an unknown ledger outcome) are not
 * reclaimed, and a running handler does not hear of a cancel (a cancelled job is still not run once leased). Not
 * thread-safe: one caller at a time.
 */
public final class InlineWorker {
    /** The shortest read a transport accepts; zero means "block forever" to Redis. */
    private static final Duration NO_WAIT = Duration.ofMillis(1);

    private final JobLeases leases;
    private final List<QueueName> queues;
    private final ConsumerName consumer;
    private final PausedQueues pauses;
    private final InFlight inFlight;
    private final Dispatcher dispatcher;
    private final PromotionLoop promotion;
    private final CountingObserver counting;

    InlineWorker(JobLeases leases, RunWorkerUseCase.Command command, PausedQueues pauses, InFlight inFlight,
                 Dispatcher dispatcher, PromotionLoop promotion, CountingObserver counting) {
        this.leases = leases;
        this.queues = command.queues();
        this.consumer = command.consumer();
        this.pauses = pauses;
        this.inFlight = inFlight;
        this.dispatcher = dispatcher;
        this.promotion = promotion;
        this.counting = counting;
    }

    /** Moves the jobs due by the clock (retries, scheduled jobs) from the delayed set into the streams. */
    public void promoteDue() {
        promotion.runOnce();
    }

    /**
     * Leases what waits in each queue that is not paused (read anew at every call), up to the worker's concurrency
     * per queue, and runs it to its end: completed and acknowledged, scheduled for a retry, or dead-lettered.
     *
     * @return how many deliveries it leased
     */
    public int runOnce() {
        pauses.refresh();
        int leased = 0;
        for (QueueName queue : queues) {
            if (!pauses.isPaused(queue)) {
                leased += leaseAndRun(queue);
            }
        }
        return leased;
    }

    /** What this worker did since it was built. */
    public WorkerCounters counters() {
        return counting.counters(inFlight.size(), inFlight.suspects());
    }

    private int leaseAndRun(QueueName queue) {
        int wanted;
        try {
            // every slot is free between calls: each delivery was released before the last call returned
            wanted = inFlight.takeFreeSlots();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
        Lease leased;
        try {
            leased = leases.lease(queue, consumer, wanted, NO_WAIT);
        } catch (RuntimeException e) {
            inFlight.freeSlots(wanted);
            throw e;
        }
        inFlight.freeSlots(wanted - leased.size());
        dispatcher.dispatch(leased);
        return leased.size();
    }
}
