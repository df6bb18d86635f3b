package dev.baton.application.port.in;

import java.time.Duration;

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
     * Blocks while the worker runs: returns once a {@link #stop} (from any thread) has finished, acknowledgements
     * sent, or once the worker stopped leasing by itself.
     */
    void await() throws InterruptedException;

    /** Counters since start, for progress displays and tests. */
    WorkerCounters counters();

    /** Stops with the default grace period. */
    @Override
    void close();
}
