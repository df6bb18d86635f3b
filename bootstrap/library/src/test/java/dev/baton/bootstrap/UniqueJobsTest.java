package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase.Outcome;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.examples.DigestJobs;
import dev.baton.bootstrap.examples.DigestJobs.SendDigest;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Unique jobs end to end, on real Redis and PostgreSQL: one job per key however many ask, released at its end. */
class UniqueJobsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final SendDigest DIGEST = new SendDigest("ada", "2030-01-01");

    private final QueueName queue = QueueName.of(TestEndpoints.unique("unique").replace('_', '-'));
    private final AtomicInteger executions = new AtomicInteger();
    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    private final Baton baton = Baton.builder()
            .config(BatonScenarioTest.threeQuickAttempts("unique").with(SCHEMA, TestEndpoints.unique("unique")))
            .set(REDIS_URI, TestEndpoints.redisUri())
            .set(JDBC_URL, TestEndpoints.jdbcUrl())
            .handler(DigestJobs.SEND_DIGEST, (digest, context) -> {
                executions.incrementAndGet();
                if (refused.contains(digest.userId())) {
                    throw new NonRetryableException("no such user");
                }
                return Optional.empty();
            })
            .build();
    private final RedisClient redis = RedisClient.create(TestEndpoints.redisUri());

    @AfterEach
    void close() {
        baton.close();
        redis.shutdown();
    }

    @Test
    void sixtyFourThreadsMakeOneEntryAndOneExecutionAndHearOneJobId() throws Exception {
        DigestJobs digests = new DigestJobs(baton, queue);
        ExecutorService threads = Executors.newFixedThreadPool(64);
        List<Future<JobId>> answers;
        try {
            answers = threads.invokeAll(IntStream.range(0, 1000)
                    .<Callable<JobId>>mapToObj(i -> () -> digests.request(DIGEST, "r" + i))
                    .toList());
        } finally {
            threads.shutdown();
        }
        Set<JobId> told = ConcurrentHashMap.newKeySet();
        for (Future<JobId> answer : answers) {
            told.add(answer.get());
        }

        assertThat(told).hasSize(1);
        assertThat(streamLength()).isEqualTo(1);
        RunningWorker worker = startWorker();
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(executions).hasValue(1);
        assertThat(digests.request(DIGEST, "after")).as("the day after completion still holds the key")
                .isEqualTo(told.iterator().next());
        assertThat(streamLength()).isEqualTo(1);
    }

    @Test
    void theKeyIsFreeOnceItsJobCompletedOrWasDeadLettered() {
        refused.add("bob");
        assertThat(enqueue("ada-1", "ada")).isInstanceOf(Outcome.Enqueued.class);
        assertThat(enqueue("bob-1", "bob")).isInstanceOf(Outcome.Enqueued.class);
        assertThat(enqueue("ada-2", "ada")).isEqualTo(new Outcome.AlreadyHeld(JobId.of("ada-1")));
        RunningWorker worker = startWorker();

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1 && worker.counters().deadLettered() == 1);

        assertThat(enqueue("ada-3", "ada")).isInstanceOf(Outcome.Enqueued.class);
        assertThat(enqueue("bob-2", "bob")).isInstanceOf(Outcome.Enqueued.class);
    }

    private Outcome enqueue(String jobId, String user) {
        return baton.enqueueUnique(DigestJobs.SEND_DIGEST.command(queue, JobId.of(jobId),
                new SendDigest(user, "2030-01-02")), Uniqueness.of("digest:" + user));
    }

    private RunningWorker startWorker() {
        return baton.start(new RunWorkerUseCase.Command(List.of(queue), Baton.defaultConsumer(), 2,
                Optional.of(DigestJobs.SEND_DIGEST.name())));
    }

    private long streamLength() {
        try (StatefulRedisConnection<String, String> connection = redis.connect()) {
            return connection.sync().xlen("baton:{" + queue.value() + "}:stream");
        }
    }
}
