package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Unique jobs on Redis beyond the contract: racing producers on a partitioned queue, the lock's place, deletion. */
class UniqueJobsRedisTest {
    private static final int PARTITIONS = 4;
    private static final Uniqueness KEY = Uniqueness.of("invoice:2030-01");
    private static RedisAdapter adapter;
    private static RawKeys raw;

    private final QueueName queue = QueueName.of("unique-" + UUID.randomUUID().toString().substring(0, 13));

    @BeforeAll
    static void connect() {
        adapter = RedisAdapter.open(RedisAdapter.Config.of(TestRedis.uri()), Clock.systemUTC());
        raw = RawKeys.standalone(TestRedis.uri());
    }

    @AfterAll
    static void disconnect() {
        adapter.close();
        raw.close();
    }

    @AfterEach
    void forget() {
        raw.forget(queue, PARTITIONS);
    }

    @Test
    void sixtyFourThreadsPublishingOneKeyAddOneEntryInItsPartition() throws Exception {
        adapter.declarePartitions(queue, PARTITIONS);
        ExecutorService threads = Executors.newFixedThreadPool(64);
        List<Future<JobId>> answers;
        try {
            answers = threads.invokeAll(IntStream.range(0, 1000)
                    .<Callable<JobId>>mapToObj(i -> () -> adapter.publisher().publishUnique(KEY.on(job("j-" + i))))
                    .toList());
        } finally {
            threads.shutdown();
        }
        Set<JobId> told = ConcurrentHashMap.newKeySet();
        for (Future<JobId> answer : answers) {
            told.add(answer.get());
        }

        assertThat(told).hasSize(1);
        int home = QueueLayout.partitionOf(KEY.key(), PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            QueueKeys keys = RawKeys.keys(queue, p, PARTITIONS);
            assertThat(raw.commands().xlen(keys.stream())).as("partition " + p).isEqualTo(p == home ? 1 : 0);
            assertThat(raw.commands().get(keys.uniqueLock(KEY.key())))
                    .isEqualTo(p == home ? told.iterator().next().value().getBytes() : null);
        }
    }

    @Test
    void aPlainPublishOfAJobNamingAKeyIsRefusedBecauseItWouldHoldNone() {
        assertThatThrownBy(() -> adapter.publisher().publish(KEY.on(job("sneaky"))))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("publish it as unique");
        assertThatThrownBy(() -> adapter.publisher().publishUnique(KEY.on(job("routed")
                .withHeaders(Map.of(QueueLayout.PARTITION_KEY, "p")))))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("partition_key");
    }

    @Test
    void deletingAQueueDeletesKeysOfItsWaitingDelayedAndCompletedJobs() {
        adapter.publisher().publishUnique(KEY.on(job("waiting")));
        adapter.publisher().publishUnique(Uniqueness.of("later").on(job("delayed").notBefore(Instant.now()
                .plusSeconds(3600))));
        adapter.publisher().publishUnique(Uniqueness.of("done").andFor(Duration.ofHours(1)).on(job("completed")));
        List<Delivery> leased =
                adapter.leases().lease(queue, ConsumerName.of("c"), 10, Duration.ofMillis(50)).deliveries();
        adapter.leases().acknowledge(queue, leased.stream()
                .filter(delivery -> ((Delivery.Leased) delivery).job().id().value().equals("completed"))
                .map(Delivery::id).toList());
        assertThat(raw.commands().pttl(RawKeys.keys(queue, 0, 1).uniqueLock("done"))).isPositive();

        adapter.deleteQueue(queue);

        assertThat(raw.commands().keys("baton:{" + queue.value() + "}:*")).isEmpty();
        assertThat(adapter.publisher().publishUnique(KEY.on(job("again")))).isEqualTo(JobId.of("again"));
    }

    private Job job(String id) {
        return Job.create(JobId.of(id), queue, "{}", Instant.ofEpochMilli(1_900_000_000_000L));
    }
}
