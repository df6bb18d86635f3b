package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.CANCEL_GRACE;
import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.MIGRATIONS;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.port.in.CancelJobUseCase.Answer;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Cancelling jobs through {@link Baton} on real Redis and PostgreSQL (exactly-once mode). */
class CancelTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int RACED_JOBS = 200;

    private final QueueName queue = QueueName.of(TestEndpoints.unique("cancel").replace('_', '-'));
    private final String schema = TestEndpoints.unique("cancel");
    private final List<String> ran = new CopyOnWriteArrayList<>();

    @Test
    void aCancelledWaitingJobAndACancelledDelayedJobNeverRun() {
        try (Baton baton = real(Baton.builder().handler(queue.value(), shipping()))) {
            baton.enqueue(queue, JobId.of("waiting"), "{}");
            baton.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("delayed"), "{}")
                    .at(Instant.now().plusSeconds(1)));
            baton.enqueue(queue, JobId.of("kept"), "{}");

            assertThat(baton.cancel(queue, JobId.of("waiting"))).isEqualTo(Answer.CANCELLED);
            assertThat(baton.cancel(queue, JobId.of("delayed"))).isEqualTo(Answer.CANCELLED);
            assertThat(baton.cancel(queue, JobId.of("waiting"))).isEqualTo(Answer.ALREADY_CANCELLED);
            RunningWorker worker = baton.start(queue.value());

            await().atMost(WAIT).until(() -> worker.counters().cancelled() == 2
                    && worker.counters().completed() == 1);
            assertThat(ran).containsExactly("kept");
            assertThat(baton.job(queue.value(), "waiting")).isInstanceOfSatisfying(Whereabouts.DeadLettered.class,
                    ended -> assertThat(ended.outcome()).isInstanceOf(JobOutcome.Cancelled.class));
            assertThat(baton.cancel(queue, JobId.of("kept"))).isEqualTo(Answer.ALREADY_COMPLETED);
        }
    }

    @Nested
    class WhenARunningJobIsCancelled {
        @Test
        void itSeesCancelledIsInterruptedAfterTheGraceAndRollsBack() throws Exception {
            CountDownLatch inserted = new CountDownLatch(1);
            AtomicBoolean cancelledWhenInterrupted = new AtomicBoolean();
            JobHandler deaf = context -> {
                insertShipment(context.unwrap(Handle.class), context.job().id().value());
                inserted.countDown();
                try {
                    new CountDownLatch(1).await(WAIT.toSeconds(), TimeUnit.SECONDS); // ignores cancelled()
                } catch (InterruptedException e) {
                    cancelledWhenInterrupted.set(context.cancelled());
                    throw e;
                }
                return Optional.empty();
            };
            try (Baton baton = real(Baton.builder().set(CANCEL_GRACE, Duration.ofMillis(500))
                    .handler(queue.value(), deaf))) {
                RunningWorker worker = baton.start(queue.value());
                baton.enqueue(queue, JobId.of("long"), "{}");
                assertThat(inserted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

                assertThat(baton.cancel(queue, JobId.of("long"))).isEqualTo(Answer.CANCELLED);

                await().atMost(WAIT).until(() -> worker.counters().cancelled() == 1);
                assertThat(cancelledWhenInterrupted).isTrue();
                assertThat(shipments()).as("its insert rolled back").isZero();
                assertThat(worker.counters().retried()).isZero();
                assertThat(worker.counters().completed()).isZero();
            }
        }
    }

    @Nested
    class WhenACancelRacesTheCommit {
        @Test
        void itIsToldTheTruthAndAJobIsNeverBothCancelledAndCompleted() throws Exception {
            ExecutorService cancellers = Executors.newFixedThreadPool(8);
            try (Baton baton = real(Baton.builder().set(CONCURRENCY, 8).handler(queue.value(), shipping()))) {
                RunningWorker worker = baton.start(queue.value());
                Map<String, Future<Answer>> answers = new ConcurrentHashMap<>();
                // all enqueued first, then cancelled in the order the worker runs them: the cancels meet the commits
                List<String> ids = IntStream.range(0, RACED_JOBS).mapToObj(i -> "raced-" + i).toList();
                ids.forEach(id -> baton.enqueue(queue, JobId.of(id), "{}"));
                ids.forEach(id -> answers.put(id, cancellers.submit(() -> baton.cancel(queue, JobId.of(id)))));
                Set<String> cancelled = new HashSet<>();
                Set<String> completed = new HashSet<>();
                for (Map.Entry<String, Future<Answer>> answer : answers.entrySet()) {
                    Answer told = answer.getValue().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    assertThat(told).as(answer.getKey()).isIn(Answer.CANCELLED, Answer.ALREADY_COMPLETED);
                    (told == Answer.CANCELLED ? cancelled : completed).add(answer.getKey());
                }
                await().atMost(WAIT).until(() -> worker.counters().cancelled() + worker.counters().completed()
                        == RACED_JOBS);

                assertThat(worker.counters().cancelled()).isEqualTo(cancelled.size());
                assertThat(worker.counters().completed()).isEqualTo(completed.size());
                for (String id : cancelled) {
                    assertThat(baton.job(queue.value(), id)).as(id)
                            .isInstanceOfSatisfying(Whereabouts.DeadLettered.class,
                                    ended -> assertThat(ended.outcome()).isInstanceOf(JobOutcome.Cancelled.class));
                }
                for (String id : completed) {
                    assertThat(baton.job(queue.value(), id)).as(id).isInstanceOf(Whereabouts.Completed.class);
                }
                assertThat(shippedJobs()).as("effects exactly of the completed jobs").isEqualTo(completed);
                assertThat(Set.copyOf(ran)).containsAll(completed);
            } finally {
                cancellers.shutdownNow();
            }
        }
    }

    private JobHandler shipping() {
        return context -> {
            insertShipment(context.unwrap(Handle.class), context.job().id().value());
            ran.add(context.job().id().value());
            return Optional.empty();
        };
    }

    private static void insertShipment(Handle handle, String jobId) {
        handle.createUpdate("INSERT INTO shop_shipments (order_id, job_id, carrier) VALUES (:job, :job, 'post')")
                .bind("job", jobId).execute();
    }

    private Baton real(BatonBuilder builder) {
        return builder.config(BatonScenarioTest.threeQuickAttempts("cancel")).set(SCHEMA, schema)
                .set(MIGRATIONS, List.of("classpath:db/shop")).set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl())
                .build();
    }

    private long shipments() throws SQLException {
        return shippedJobs().size();
    }

    private Set<String> shippedJobs() throws SQLException {
        Set<String> jobs = new HashSet<>();
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT job_id FROM " + schema
                     + ".shop_shipments")) {
            while (rows.next()) {
                jobs.add(rows.getString(1));
            }
        }
        return jobs;
    }
}
