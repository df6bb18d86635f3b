package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * Measures, not asserts: the enqueue rate (pipelined publishAll) and the lease + acknowledge rate of one consumer
 * thread, on {@code BATON_TEST_REDIS_URI}. Run by hand (not a test), e.g. with the test classpath:
 * {@code java -cp ... dev.baton.adapters.redis.ThroughputMeasurement 20000 500}.
 */
public final class ThroughputMeasurement {
    private ThroughputMeasurement() {
    }

    public static void main(String[] args) {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        QueueName queue = QueueName.of("throughput-" + UUID.randomUUID().toString().substring(0, 8));
        String payload = "{\"orderId\":\"1001\",\"amount\":\"12.50\",\"currency\":\"EUR\"}";
        try (RedisAdapter adapter = RedisAdapter.open(RedisAdapter.Config.of(TestRedis.uri()), Clock.systemUTC());
             RawRedis raw = new RawRedis(TestRedis.uri())) {
            adapter.leases().declare(queue);
            Instant now = Instant.now();

            long start = System.nanoTime();
            for (int from = 0; from < jobs; from += batch) {
                adapter.publisher().publishAll(IntStream.range(from, Math.min(jobs, from + batch))
                        .mapToObj(i -> Job.create(JobId.of("job-" + i), queue, payload, now)).toList());
            }
            report("enqueue (publishAll, batches of " + batch + ")", jobs, System.nanoTime() - start);

            ConsumerName consumer = ConsumerName.of("measure");
            start = System.nanoTime();
            int consumed = 0;
            while (consumed < jobs) {
                List<Delivery> leased = adapter.leases().lease(queue, consumer, batch, Duration.ofMillis(100));
                adapter.leases().acknowledge(queue, leased.stream().map(Delivery::id).toList());
                consumed += leased.size();
            }
            report("lease + acknowledge (batches of " + batch + ", one thread)", consumed, System.nanoTime() - start);

            start = System.nanoTime();
            for (int i = 0; i < 2_000; i++) {
                adapter.publisher().publish(Job.create(JobId.of("single-" + i), queue, payload, now));
            }
            report("enqueue (publish, one at a time)", 2_000, System.nanoTime() - start);

            start = System.nanoTime();
            consumed = 0;
            while (consumed < 2_000) {
                List<Delivery> leased = adapter.leases().lease(queue, consumer, 1, Duration.ofMillis(100));
                adapter.leases().acknowledge(queue, leased.stream().map(Delivery::id).toList());
                consumed += leased.size();
            }
            report("lease + acknowledge (one at a time)", consumed, System.nanoTime() - start);
            raw.forget(queue);
        }
    }

    private static void report(String what, int count, long nanos) {
        double seconds = nanos / 1e9;
        System.out.printf("%-55s %7d jobs in %6.2f s = %8.0f jobs/s%n", what, count, seconds, count / seconds);
    }
}
