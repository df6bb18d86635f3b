package dev.baton.application.port.in;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Set;

/** A started worker. */
public interface RunningWorker extends AutoCloseable {

    /**
     * Stops gracefully: stops leasing, waits up to {@code grace} for running jobs, then interrupts the rest and
     * leaves them unacknowledged so another worker takes them over. Blocks until stopped. Idempotent.
     *
     * @return how many jobs were still running when the grace period ended (abandoned to other workers)
     */
    int stop(Duration grace);

    boolean isRunning();

    /**
     * The consumer name it runs under: the one its command asked for, or, while a live worker held that one, the
     * first numbered one free ({@code <name>-2}, {@code <name>-3}, …).
     */
    ConsumerName consumer();

    /**
     * Blocks while the worker runs: returns once a {@link #stop} (from any thread) has finished, acknowledgements
     * sent, or once the worker stopped leasing by itself.
     */
    void await() throws InterruptedException;

    /** Counters since start, for progress displays and tests. */
    WorkerCounters counters();

    /**
     * The queues this worker leases nothing from, as it last read them: at most a second old, and no lease started
     * since reading them takes from one of them. Empty before the worker first read them.
     */
    Set<QueueName> pausedQueues();

    /** Stops with the default grace period. */
    @Override
    void close();
}
