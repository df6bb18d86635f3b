package dev.baton.adapters.postgres;

import dev.baton.adapters.postgres.testing.TestPostgres;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * Measures single-job transactions per second with a trivial effect: a throwaway measurement, not a test (run it by
 * hand: {@code java -cp ... dev.baton.adapters.postgres.LedgerThroughput [seconds] [threads...]}).
 */
final class LedgerThroughput {
    private LedgerThroughput() {
    }

    public static void main(String[] args) throws Exception {
        Duration run = Duration.ofSeconds(args.length > 0 ? Integer.parseInt(args[0]) : 5);
        List<Integer> threadCounts = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            threadCounts.add(Integer.parseInt(args[i]));
        }
        if (threadCounts.isEmpty()) {
            threadCounts = List.of(1, 4);
        }
        String schema = "baton_throughput_" + UUID.randomUUID().toString().substring(0, 8);
        PostgresAdapter.Config config = PostgresAdapter.Config.of(TestPostgres.jdbcUrl()).withSchema(schema)
                .withPoolSize(threadCounts.stream().mapToInt(Integer::intValue).max().orElse(1));
        try (PostgresAdapter adapter = PostgresAdapter.open(config, Clock.systemUTC())) {
            for (int threads : threadCounts) {
                measure(adapter.ledger(), threads, Duration.ofSeconds(1)); // warm-up
                long jobs = measure(adapter.ledger(), threads, run);
                System.out.printf("%d thread(s): %d jobs in %s = %.0f jobs/s%n", threads, jobs, run,
                        jobs / (run.toMillis() / 1000.0));
            }
        } finally {
            Jdbi.create(TestPostgres.jdbcUrl()).useHandle(h -> h.execute("DROP SCHEMA " + schema + " CASCADE"));
        }
    }

    private static long measure(ExecutionLedger ledger, int threads, Duration run) throws Exception {
        QueueName queue = QueueName.of("throughput");
        ConsumerName consumer = ConsumerName.of("bench");
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + run.toNanos();
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(executor.submit(() -> {
                    while (System.nanoTime() < end) {
                        Job job = Job.create(JobId.of(UUID.randomUUID().toString()), queue, "{}", Instant.now());
                        ledger.execute(new Execution(job, consumer, new DeliveryId("0-0"), 1,
                                Instant.now().plusSeconds(30)), transaction -> Optional.empty());
                        done.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            executor.shutdownNow();
        }
        return done.get();
    }
}
