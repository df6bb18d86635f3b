package dev.baton.bootstrap.bench;

import dev.baton.bootstrap.bench.Benchmark.ProgressListener;
import dev.baton.domain.QueueName;
import java.time.Duration;

/**
 * Runs rounds of jobs on a queue of their own, unmeasured, until the JIT is quiet: a JIT still compiling takes CPU
 * from the worker, and the measurement would be of the compiler. Each round has a worker of its own.
 */
final class WarmUp {
    /** The most jobs of one round. */
    static final int MAX_ROUND = 10_000_000;
    /** Rounds go on until the JIT compiled for less than this share of a round, or for {@code maxWarmup}. */
    private static final double JIT_QUIET_SHARE = 0.05;
    /** After the first round, a round lasts about this long, so that a fast mode's rounds are not mere bursts. */
    private static final Duration ROUND = Duration.ofSeconds(3);

    private final LoadGenerator load;
    private final BenchWorker worker;
    private final QueueName queue;

    WarmUp(LoadGenerator load, BenchWorker worker, QueueName queue) {
        this.load = load;
        this.worker = worker;
        this.queue = queue;
    }

    /**
     * The first round has {@code firstRound} jobs, later ones as many as ran in about {@link #ROUND} (at least
     * {@code firstRound}); no round starts after {@code maxWarmup}.
     *
     * @return how many warm-up jobs ran
     */
    int run(int firstRound, Duration maxWarmup) throws InterruptedException {
        if (firstRound == 0) {
            return 0;
        }
        long deadline = System.nanoTime() + maxWarmup.toNanos();
        int warmed = 0;
        int perRound = firstRound;
        for (int round = 1; ; round++) {
            LatencyRecorder warm = new LatencyRecorder(queue.value() + "-" + round + "-", perRound, false);
            load.enqueueAll(queue, warm, ProgressListener.SILENT);
            Stopwatch took = Stopwatch.start();
            long jitBefore = ProcessProbes.jitMillis();
            try (BenchWorker.Run run = worker.start(queue, warm)) {
                run.awaitAll("warmup " + round);
            }
            warmed += perRound;
            double seconds = took.seconds();
            if ((ProcessProbes.jitMillis() - jitBefore) / (seconds * 1_000) < JIT_QUIET_SHARE
                    || System.nanoTime() - deadline > 0) {
                return warmed;
            }
            perRound = (int) Math.min(MAX_ROUND, Math.max(firstRound, perRound / seconds * ROUND.toSeconds()));
        }
    }
}
