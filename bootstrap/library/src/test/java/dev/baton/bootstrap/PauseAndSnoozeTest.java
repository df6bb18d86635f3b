package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.MAX_ATTEMPTS;
import static dev.baton.bootstrap.config.Setting.MIGRATIONS;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.SnoozeException;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Pausing a queue and snoozing a job through {@link Baton}, on the in-memory adapters and on real servers. */
class PauseAndSnoozeTest {
    private static final int JOBS = 10;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** What the issue asks: a paused queue runs nothing for five seconds. */
    private static final Duration PAUSED_WINDOW = Duration.ofSeconds(5);
    /** A second worker's reads of the pauses: nothing it leased in that time may run. */
    private static final Duration TWO_CHECKS = Duration.ofSeconds(2);

    private final QueueName queue = QueueName.of(TestEndpoints.unique("paused").replace('_', '-'));
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final JobHandler recording = context -> {
        ran.add(context.job().id().value());
        return Optional.empty();
    };

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.baton.bootstrap.BatonScenarioTest#wirings")
    void aPausedQueueRunsNothingEvenOnANewWorkerThenAllOnResume(
            String name, Function<BatonBuilder, BatonBuilder> wiring) {
        try (Baton baton = wiring.apply(Baton.builder().config(BatonScenarioTest.threeQuickAttempts("paused"))
                .handler(queue.value(), recording)).build()) {
            RunningWorker worker = baton.start(queue.value());
            baton.enqueue(queue, JobId.of("before"), "{}");
            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);

            baton.pause(queue);
            await().atMost(WAIT).until(() -> worker.pausedQueues().contains(queue));
            IntStream.range(0, JOBS).forEach(i -> baton.enqueue(queue, JobId.of("job-" + i), "{}"));

            await().during(PAUSED_WINDOW).atMost(PAUSED_WINDOW.plusSeconds(2)).until(() -> ran.size() == 1);
            assertThat(stats(baton).paused()).isTrue();
            assertThat(stats(baton).length()).isEqualTo(JOBS + 1);
            worker.stop(Duration.ofSeconds(5));
            RunningWorker restarted = baton.start(queue.value());
            await().atMost(WAIT).until(() -> restarted.pausedQueues().contains(queue));
            await().during(TWO_CHECKS).atMost(TWO_CHECKS.plusSeconds(2)).until(() -> ran.size() == 1);

            baton.resume(queue);

            await().atMost(WAIT).until(() -> restarted.counters().completed() == JOBS);
            assertThat(ran).hasSize(JOBS + 1).doesNotHaveDuplicates();
            assertThat(stats(baton).paused()).isFalse();
        }
    }

    @Test
    void aPauseLivesInRedisAndOutlivesTheProcessThatSetIt() {
        try (Baton operator = real(Baton.builder())) {
            operator.pause(queue);
        }
        try (Baton baton = real(Baton.builder().handler(queue.value(), recording))) {
            baton.enqueue(queue, JobId.of("waits"), "{}");
            RunningWorker worker = baton.start(queue.value());
            await().atMost(WAIT).until(() -> worker.pausedQueues().contains(queue));
            await().during(TWO_CHECKS).atMost(TWO_CHECKS.plusSeconds(2)).until(ran::isEmpty);

            try (Baton operator = real(Baton.builder())) {
                operator.resume(queue);
            }

            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
            assertThat(ran).containsExactly("waits");
        }
    }

    @Test
    void aSnoozedAttemptCommitsNothingInPostgresAndSpendsNoAttempt() throws SQLException {
        String schema = TestEndpoints.unique("snooze");
        // the insert comes before the snooze; job_id is unique, so a snoozed insert left behind would fail the next
        JobHandler handler = context -> {
            context.unwrap(Handle.class).createUpdate(
                            "INSERT INTO shop_shipments (order_id, job_id, carrier) VALUES ('o-1', :job, 'post')")
                    .bind("job", context.job().id().value()).execute();
            if (context.job().snoozes() < 2) {
                throw new SnoozeException(Duration.ofMillis(500));
            }
            return Optional.of("shipped after " + context.job().snoozes() + " snoozes");
        };
        try (Baton baton = real(Baton.builder().set(SCHEMA, schema).set(MIGRATIONS, List.of("classpath:db/shop"))
                .set(MAX_ATTEMPTS, 1)
                .handler(queue.value(), handler))) {
            RunningWorker worker = baton.start(queue.value());
            baton.enqueue(queue, JobId.of("ship-1"), "{}");

            await().atMost(WAIT).until(() -> worker.counters().snoozed() >= 1);
            assertThat(shipments(schema)).isZero();
            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);

            assertThat(shipments(schema)).isEqualTo(1);
            assertThat(worker.counters().snoozed()).isEqualTo(2);
            assertThat(worker.counters().retried()).isZero();
            assertThat(worker.counters().deadLettered()).isZero();
            assertThat(baton.job(queue.value(), "ship-1")).isInstanceOfSatisfying(Whereabouts.Completed.class,
                    completed -> {
                        assertThat(completed.completion().attempt()).isEqualTo(1);
                        assertThat(completed.completion().result()).contains("shipped after 2 snoozes");
                    });
        }
    }

    private Baton real(BatonBuilder builder) {
        return builder.config(BatonScenarioTest.threeQuickAttempts("paused")).set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl()).build();
    }

    private QueueStats stats(Baton baton) {
        return baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(queue)).stats();
    }

    private static long shipments(String schema) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM " + schema
                     + ".shop_shipments")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
