package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.adapters.redis.testing.ThrowawayRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Measures, not asserts (docs/SCALING.md): end-to-end throughput (producers publishing in batches while consumers
 * lease and acknowledge) on one private Redis and on a private three-master cluster, and Redis memory per waiting
 * and per pending job. Run by hand with the test classpath:
 * {@code java -cp ... dev.baton.adapters.redis.ScalingMeasurement 40000 4}.
 */
public final class ScalingMeasurement {
    private static final String PAYLOAD = "{\"orderId\":\"1001\",\"amount\":\"12.50\",\"currency\":\"EUR\"}";

    private ScalingMeasurement() {
    }

    public static void main(String[] args) throws Exception {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        try (ThrowawayRedis single = ThrowawayRedis.start();
             RedisAdapter adapter = RedisAdapter.open(RedisAdapter.Config.of(single.uri()), Clock.systemUTC())) {
            memory(adapter, single, 100_000);
            for (int partitions : List.of(1, 6, 1, 6)) {
                run("1 master, P=" + partitions, adapter, partitions, jobs, threads);
            }
        }
        try (TestCluster cluster = TestCluster.start();
             RedisAdapter adapter = RedisAdapter.open(RedisAdapter.Config.of(cluster.uri())
                     .withClusterNodes(cluster.clusterNodes()), Clock.systemUTC())) {
            for (int partitions : List.of(1, 6, 12, 1, 6, 12)) {
                run("3 masters, P=" + partitions, adapter, partitions, jobs, threads);
            }
        }
    }

    private static void run(String label, RedisAdapter adapter, int partitions, int jobs, int threads)
            throws Exception {
        QueueName queue = QueueName.of("scale-" + UUID.randomUUID().toString().substring(0, 8));
        adapter.declarePartitions(queue, partitions);
        Instant now = Instant.now();
        ExecutorService pool = Executors.newFixedThreadPool(2 * threads);
        AtomicInteger consumed = new AtomicInteger();
        long start = System.nanoTime();
        List<Future<?>> work = new ArrayList<>();
        int perProducer = jobs / threads;
        for (int t = 0; t < threads; t++) {
            int producer = t;
            work.add(pool.submit(() -> {
                for (int from = 0; from < perProducer; from += 100) {
                    int first = from;
                    adapter.publisher().publishAll(IntStream.range(first, Math.min(perProducer, first + 100))
                            .mapToObj(i -> Job.create(JobId.of("p" + producer + "-" + i), queue, PAYLOAD, now))
                            .toList());
                }
            }));
            ConsumerName consumer = ConsumerName.of("c" + t);
            work.add(pool.submit(() -> {
                while (consumed.get() < perProducer * threads) {
                    List<Delivery> leased =
                            adapter.leases().lease(queue, consumer, 100, Duration.ofMillis(50)).deliveries();
                    adapter.leases().acknowledge(queue, leased.stream().map(Delivery::id).toList());
                    consumed.addAndGet(leased.size());
                }
            }));
        }
        for (Future<?> future : work) {
            future.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        System.out.printf("%-20s %d producers + %d consumers: %7d jobs in %6.2f s = %8.0f jobs/s (enqueue + lease +"
                + " ack)%n", label, threads, threads, consumed.get(), seconds, consumed.get() / seconds);
    }

    private static void memory(RedisAdapter adapter, ThrowawayRedis redis, int jobs) {
        QueueName queue = QueueName.of("memory-" + UUID.randomUUID().toString().substring(0, 8));
        adapter.leases().declare(queue);
        try (RawRedis raw = new RawRedis(redis.uri())) {
            long empty = usedMemory(raw);
            Instant now = Instant.now();
            for (int from = 0; from < jobs; from += 500) {
                int first = from;
                adapter.publisher().publishAll(IntStream.range(first, first + 500)
                        .mapToObj(i -> Job.create(JobId.of(UUID.randomUUID().toString()), queue, PAYLOAD, now))
                        .toList());
            }
            long waiting = usedMemory(raw);
            ConsumerName consumer = ConsumerName.of("memory");
            for (int leased = 0; leased < jobs; ) {
                leased += adapter.leases().lease(queue, consumer, 1000, Duration.ZERO).deliveries().size();
            }
            long pending = usedMemory(raw);
            System.out.printf("memory: %d jobs (36-char job ids, %d-byte payload): waiting %.0f bytes/job, pending"
                    + " (leased, not acknowledged) %.0f bytes/job%n", jobs, PAYLOAD.length(),
                    (waiting - empty) / (double) jobs, (pending - empty) / (double) jobs);
            raw.forget(queue);
        }
    }

    private static long usedMemory(RawRedis raw) {
        for (String line : raw.commands().info("memory").split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("no used_memory in INFO memory");
    }
}
