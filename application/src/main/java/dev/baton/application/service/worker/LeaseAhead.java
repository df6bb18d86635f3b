package dev.baton.application.service.worker;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many deliveries a worker leases beyond the jobs it runs, so that a job thread that ends a job finds the next one
 * ready instead of waiting for the fetcher's round trip to Redis: with short jobs that wait is most of a job's time,
 * and the database sees fewer transactions at once than the worker has job threads.
 *
 * <p>A delivery leased ahead waits for a job thread, on this worker, while another worker may be idle. So the worker
 * leases only as far ahead as it runs through within {@link #WAIT}, judged by how long its recent batches took: jobs
 * of a few milliseconds get up to {@code most} deliveries ahead, jobs of a second or more none. Until a batch has
 * ended the worker knows nothing of its jobs and leases nothing ahead.
 *
 * <p>A worker that crashes or freezes leaves every delivery it held to the others as a suspect, which runs alone
 * ({@link Suspects}): a delivery leased ahead cannot be told from a running one once its worker is gone. So the
 * deliveries ahead stay a small share of the concurrency ({@link #forWorker}), and a crash costs the survivors at
 * most that share more isolated runs.
 */
final class LeaseAhead {
    /** About the longest a delivery leased ahead waits for a job thread. */
    static final Duration WAIT = Duration.ofMillis(20);
    /**
     * The most deliveries leased ahead are the concurrency divided by this, rounded up: enough for the jobs that end
     * during a lease's round trip (measured: docs/BENCHMARKS.md, "Leasing ahead").
     */
    static final int CONCURRENCY_SHARE = 4;
    /** The weight of the newest batch in the running average: an eighth. */
    private static final int SMOOTHING = 8;
    private static final LeaseAhead NONE = new LeaseAhead(1, 0);

    private final int running;
    private final int most;
    private final AtomicLong averageNanos = new AtomicLong(-1);

    /**
     * @param running the jobs the worker's batches, all full, hold at once
     * @param most    the most deliveries it may lease ahead of them
     */
    LeaseAhead(int running, int most) {
        if (running < 1 || most < 0) {
            throw new IllegalArgumentException("running must be positive and most not negative, got " + running
                    + " and " + most);
        }
        this.running = running;
        this.most = most;
    }

    /**
     * How far a worker running {@code concurrency} jobs at once leases ahead: up to a {@link #CONCURRENCY_SHARE}th of
     * it. Its drainers each end a batch of up to {@code jobsPerTransaction} jobs every average batch time.
     */
    static LeaseAhead forWorker(int concurrency, int batchCommit) {
        int running = WorkerSettings.transactionsAtOnce(concurrency, batchCommit)
                * WorkerSettings.jobsPerTransaction(concurrency, batchCommit);
        return new LeaseAhead(running, most(concurrency));
    }

    /** The most deliveries a worker running {@code concurrency} jobs at once leases ahead. */
    static int most(int concurrency) {
        return (concurrency + CONCURRENCY_SHARE - 1) / CONCURRENCY_SHARE;
    }

    /** Leases nothing ahead. */
    static LeaseAhead none() {
        return NONE;
    }

    /** A batch of jobs took {@code nanos} from its start to its end. */
    void batchTook(long nanos) {
        if (most > 0) {
            averageNanos.accumulateAndGet(Math.max(0, nanos),
                    (average, latest) -> average < 0 ? latest : average + (latest - average) / SMOOTHING);
        }
    }

    /**
     * The deliveries to lease ahead now: as many as the running jobs end within {@link #WAIT} (each job thread ends a
     * batch every average batch time), at most {@code most}.
     */
    int depth() {
        long average = averageNanos.get();
        if (average < 0) {
            return 0;
        }
        long ahead = running * WAIT.toNanos() / Math.max(1, average);
        return (int) Math.min(most, ahead);
    }
}
