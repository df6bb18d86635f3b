package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The ledger as the record of how jobs ended, on real Redis and PostgreSQL: a dead job is reported from the ledger,
 * replayed and completed; and when Redis rolls back its group (and loses the dead letter, or not), the job the ledger
 * says is dead is acknowledged, never completed, and its dead letter is there exactly once.
 */
class LedgerOutcomesEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final QueueName queue = QueueName.of(TestEndpoints.unique("outcomes").replace('_', '-'));
    private final RedisClient redisClient = RedisClient.create(TestEndpoints.redisUri());
    private final StatefulRedisConnection<String, String> connection = redisClient.connect();
    private final RedisCommands<String, String> redis = connection.sync();
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final AtomicBoolean refundsWork = new AtomicBoolean();

    @AfterEach
    void forgetQueue() {
        redis.del(key("stream"), key("delayed"), key("dead"), key("dead-jobs"));
        connection.close();
        redisClient.shutdown();
    }

    @Test
    void aDeadJobIsReportedFromTheLedgerThenReplayedAndCompleted() {
        try (Baton baton = baton()) {
            baton.enqueue(queue, JobId.of("refund-1"), "{}");
            RunningWorker worker = baton.start(queue.value());
            await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1);

            assertThat(baton.job(queue.value(), "refund-1")).isInstanceOfSatisfying(Whereabouts.DeadLettered.class,
                    dead -> {
                        assertThat(((JobOutcome.Dead) dead.outcome()).record().reason())
                                .isEqualTo(DeadLetterReason.NON_RETRYABLE);
                        assertThat(dead.sighting()).containsInstanceOf(JobSighting.Dead.class);
                    });
            assertThat(inspect(baton).deadByReason()).isEqualTo(Map.of(DeadLetterReason.NON_RETRYABLE, 1L));

            refundsWork.set(true);
            RedriveDeadLettersUseCase.Command replay = new RedriveDeadLettersUseCase.Command(queue,
                    new DeadLetterSelection.All());
            assertThat(baton.use(RedriveDeadLettersUseCase.class).redrive(replay)).isEqualTo(1);
            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);

            assertThat(baton.job(queue.value(), "refund-1")).isInstanceOfSatisfying(Whereabouts.Completed.class,
                    completed -> assertThat(completed.completion().result()).contains("done refund-1"));
            assertThat(baton.use(RedriveDeadLettersUseCase.class).redrive(replay)).as("idempotent").isZero();
            assertThat(inspect(baton).deadByReason()).isEmpty();
            assertThat(inspect(baton).stats().dead()).isZero();
        }
    }

    @Nested
    class AfterRedisRolledBackItsGroup {
        @Test
        void theDeadJobIsAcknowledgedAndItsLostDeadLetterWrittenAgain() {
            redeliveredAfterARollback(true);
        }

        @Test
        void theDeadJobIsAcknowledgedAndItsDeadLetterNotDuplicated() {
            redeliveredAfterARollback(false);
        }
    }

    private void redeliveredAfterARollback(boolean deadLetterLost) {
        try (Baton baton = baton()) {
            baton.enqueue(queue, JobId.of("refund-2"), "{}");
            RunningWorker worker = baton.start(queue.value());
            await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1);
            // refunds work now: only the ledger keeps the dead job from completing when it comes back
            refundsWork.set(true);

            if (deadLetterLost) {
                redis.del(key("dead"), key("dead-jobs"));
            }
            redis.xgroupSetid(XReadArgs.StreamOffset.from(key("stream"), "0"), queue.value() + "-workers");
            await().atMost(WAIT).until(() -> runs.get("refund-2").get() == 2 && deadLetters(baton).size() == 1
                    && inspect(baton).stats().pending() == 0);

            StoredDeadLetter letter = deadLetters(baton).get(0);
            assertThat(letter.letter().reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
            assertThat(letter.letter().lastError().message()).contains("refunds are switched off");
            assertThat(worker.counters().completed()).isZero();
            assertThat(worker.counters().deadLettered()).as("not dead-lettered anew").isEqualTo(1);
            assertThat(inspect(baton).completed()).hasValue(0);
            assertThat(baton.job(queue.value(), "refund-2")).isInstanceOf(Whereabouts.DeadLettered.class);
        }
    }

    private Baton baton() {
        JobHandler handler = context -> {
            String id = context.job().id().value();
            runs.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
            if (!refundsWork.get()) {
                throw new NonRetryableException("refunds are switched off");
            }
            return Optional.of("done " + id);
        };
        return Baton.builder().config(BatonScenarioTest.threeQuickAttempts("outcomes"))
                .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl())
                .handler(queue.value(), handler).build();
    }

    private InspectQueueUseCase.QueueReport inspect(Baton baton) {
        return baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(queue));
    }

    private List<StoredDeadLetter> deadLetters(Baton baton) {
        return baton.use(ListDeadLettersUseCase.class)
                .list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 10));
    }

    private String key(String name) {
        return "baton:{" + queue.value() + "}:" + name;
    }
}
