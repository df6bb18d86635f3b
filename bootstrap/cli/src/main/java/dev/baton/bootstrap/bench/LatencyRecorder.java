package dev.baton.bootstrap.bench;

import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Times every benchmark job (ids {@code <prefix><index>}) with {@link System#nanoTime()}: when it was offered, when
 * its first attempt started, when it first completed, and how many times it completed. It hears the worker's events
 * after the metrics do ({@link CurrentRecorder}): the benchmark pays for the metrics like a real worker does.
 */
final class LatencyRecorder implements JobObserver {
    private final String prefix;
    private final AtomicLongArray offered;
    /** When each job's enqueue call returned (its commit done), if timed; empty otherwise. */
    private final AtomicLongArray returned;
    private final AtomicLongArray started;
    private final AtomicLongArray completed;
    private final AtomicIntegerArray completions;
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong dead = new AtomicLong();

    /** @param timesReturns whether to time when each enqueue call returned too (commit-to-start, for the outbox) */
    LatencyRecorder(String prefix, int jobs, boolean timesReturns) {
        this.prefix = prefix;
        this.offered = new AtomicLongArray(jobs);
        this.returned = new AtomicLongArray(timesReturns ? jobs : 0);
        this.started = new AtomicLongArray(jobs);
        this.completed = new AtomicLongArray(jobs);
        this.completions = new AtomicIntegerArray(jobs);
    }

    /** How many jobs it times: those with ids {@code <prefix>0} to {@code <prefix><jobs - 1>}. */
    int jobs() {
        return offered.length();
    }

    /** What every one of its job ids starts with. */
    String prefix() {
        return prefix;
    }

    String jobId(int index) {
        return prefix + index;
    }

    void offered(int index, long nanos) {
        offered.set(index, nanos);
    }

    /** The enqueue call of the jobs {@code from} (inclusive) to {@code to} returned: their commit is done. */
    void returned(int from, int to, long nanos) {
        for (int i = from; i < to && i < returned.length(); i++) {
            returned.set(i, nanos);
        }
    }

    /** Jobs that completed at least once. */
    long done() {
        return done.get();
    }

    long failures() {
        return failures.get();
    }

    long deadLettered() {
        return dead.get();
    }

    /** True when every job completed exactly once. */
    boolean eachCompletedOnce() {
        for (int i = 0; i < completions.length(); i++) {
            if (completions.get(i) != 1) {
                return false;
            }
        }
        return true;
    }

    /** Nanoseconds from the first start to the last completion. */
    long processingNanos() {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < started.length(); i++) {
            if (completed.get(i) != 0) {
                first = Math.min(first, started.get(i));
                last = Math.max(last, completed.get(i));
            }
        }
        return first == Long.MAX_VALUE ? 1 : Math.max(1, last - first);
    }

    /**
     * Offer-to-start and offer-to-completion latencies of the completed jobs, in milliseconds. One array serves both
     * in turn: with a million jobs, the report must not need more heap than the worker it measures.
     */
    Latencies latencies() {
        long[] sorted = new long[offered.length()];
        int n = between(offered, started, sorted);
        if (n == 0) {
            return new Latencies(0, 0, 0, 0, 0, Optional.empty());
        }
        double startP50 = millis(percentile(sorted, n, 0.50));
        double startP99 = millis(percentile(sorted, n, 0.99));
        Optional<double[]> commitToStart = Optional.empty();
        if (returned.length() > 0) {
            between(returned, started, sorted);
            commitToStart = Optional.of(new double[] {millis(percentile(sorted, n, 0.50)),
                    millis(percentile(sorted, n, 0.99))});
        }
        between(offered, completed, sorted);
        return new Latencies(startP50, startP99, millis(percentile(sorted, n, 0.50)),
                millis(percentile(sorted, n, 0.99)), millis(sorted[n - 1]), commitToStart);
    }

    /**
     * Puts the time from {@code from} to {@code until} of each completed job into the first slots of {@code into},
     * sorted; none below 0 (a job can start before its producer's thread hears that its commit is done).
     *
     * @return how many jobs completed
     */
    private int between(AtomicLongArray from, AtomicLongArray until, long[] into) {
        int n = 0;
        for (int i = 0; i < offered.length(); i++) {
            if (completed.get(i) != 0) {
                into[n++] = Math.max(0, until.get(i) - from.get(i));
            }
        }
        Arrays.sort(into, 0, n);
        return n;
    }

    /** @param commitToStart p50 and p99 from each enqueue call's return (its commit done) to the start, if timed */
    record Latencies(double startP50, double startP99, double completeP50, double completeP99, double max,
                     Optional<double[]> commitToStart) {
    }

    private static long percentile(long[] sorted, int n, double p) {
        return sorted[Math.min(n - 1, (int) Math.ceil(p * n) - 1)];
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1e4) / 100.0;
    }

    private int index(Job job) {
        String id = job.id().value();
        return id.startsWith(prefix) ? Integer.parseInt(id, prefix.length(), id.length(), 10) : -1;
    }

    @Override
    public void jobStarted(Job job, Duration waited) {
        int i = index(job);
        if (i >= 0) {
            started.compareAndSet(i, 0, System.nanoTime());
        }
    }

    @Override
    public void jobCompleted(Job job, Duration processing) {
        int i = index(job);
        if (i >= 0) {
            completed.compareAndSet(i, 0, System.nanoTime());
            if (completions.incrementAndGet(i) == 1) {
                done.incrementAndGet();
            }
        }
    }

    @Override
    public void jobFailed(Job job, JobError error) {
        failures.incrementAndGet();
    }

    @Override
    public void jobDeadLettered(DeadLetter letter) {
        dead.incrementAndGet();
    }
}
