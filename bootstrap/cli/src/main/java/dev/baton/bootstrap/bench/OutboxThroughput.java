package dev.baton.bootstrap.bench;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.EnqueueRoute;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * How fast jobs go into the outbox, each enqueue a transaction of its own: one job per transaction from
 * {@code producers} threads at once (as {@code pgbench -c} clients do), and {@value #BULK} jobs per transaction from
 * one thread. With the instance's relay publishing them meanwhile, as in any deployment (every worker relays), to a
 * queue no worker reads; the queue and the schema of its own are deleted afterwards.
 */
final class OutboxThroughput {
    static final int BULK = 1_000;

    /**
     * @param producers        threads enqueueing one job per transaction at once
     * @param singleJobsPerS   jobs per second, one per transaction
     * @param bulkJobsPerS     jobs per second, {@value #BULK} per transaction
     */
    record Rates(int producers, double singleJobsPerS, double bulkJobsPerS) {
    }

    private OutboxThroughput() {
    }

    static Rates measure(BatonConfig config, QueueName queue, int jobs, int producers, String payload)
            throws InterruptedException {
        Baton baton = Baton.builder().config(config).build();
        try (baton) {
            baton.migrate();
            // a first round of each warms the JIT and the connections up
            single(baton, queue, "warm-", Math.min(jobs, 5_000), producers, payload);
            double single = single(baton, queue, "single-", jobs, producers, payload);
            bulk(baton, queue, "warm-bulk-", Math.min(jobs, 5 * BULK), payload);
            double bulk = bulk(baton, queue, "bulk-", jobs, payload);
            return new Rates(producers, single, bulk);
        } finally {
            BenchCleanup.discard(config, List.of(queue), true);
        }
    }

    private static double single(Baton baton, QueueName queue, String prefix, int jobs, int producers,
                                 String payload) throws InterruptedException {
        ExecutorService threads = Executors.newFixedThreadPool(producers);
        try {
            Stopwatch took = Stopwatch.start();
            List<Future<?>> running = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int first = p;
                running.add(threads.submit(() -> {
                    for (int i = first; i < jobs; i += producers) {
                        baton.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of(prefix + i), payload),
                                EnqueueRoute.OUTBOX);
                    }
                }));
            }
            for (Future<?> producer : running) {
                producer.get();
            }
            return jobs / took.seconds();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("an outbox enqueue failed: " + e.getCause(), e.getCause());
        } finally {
            threads.shutdownNow();
        }
    }

    private static double bulk(Baton baton, QueueName queue, String prefix, int jobs, String payload) {
        Stopwatch took = Stopwatch.start();
        for (int from = 0; from < jobs; from += BULK) {
            List<EnqueueJobUseCase.Command> commands = new ArrayList<>(BULK);
            for (int i = from; i < Math.min(jobs, from + BULK); i++) {
                commands.add(EnqueueJobUseCase.Command.now(queue, JobId.of(prefix + i), payload));
            }
            baton.enqueueAll(commands, EnqueueRoute.OUTBOX);
        }
        return jobs / took.seconds();
    }
}
