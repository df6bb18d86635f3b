package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.NO_HANDLER_GRACE;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.JobObserver;
import dev.baton.bootstrap.examples.ShippingJobs;
import dev.baton.bootstrap.examples.ShippingJobs.ShipParcel;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Jobs routed by their type on real Redis and PostgreSQL: a worker started on any queue runs the types it has handlers
 * for, a job whose type it has no handler for waits for a worker that has one, and every enqueue path counts its job
 * once, when the job reaches its queue.
 */
class TypedRoutingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final String schema = TestEndpoints.unique("routing");
    private final QueueName queue = QueueName.of(TestEndpoints.unique("shipping").replace('_', '-'));
    private final List<ShipParcel> shipped = new CopyOnWriteArrayList<>();

    @Test
    void aWorkerOnAQueueNamedLikeNoHandlerRunsTheTypesItHandles() {
        try (Baton shop = upgraded().build()) {
            RunningWorker worker = shop.start(queue.value());

            shop.enqueue(ShippingJobs.SHIP_PARCEL, queue, JobId.of("parcel-1"), new ShipParcel("1", 300, false));

            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
            assertThat(shipped).containsExactly(new ShipParcel("1", 300, false));
        }
    }

    @Nested
    class DuringARollingDeploy {
        @Test
        void aJobOfANewTypeWaitsForAWorkerThatHasItsHandler() {
            try (Baton old = builder().build(); Baton upgraded = upgraded().build()) {
                RunningWorker oldWorker = old.start(queue.value());
                old.enqueue(ShippingJobs.SHIP_PARCEL, queue, JobId.of("parcel-2"), new ShipParcel("2", 300, false));
                await().atMost(WAIT).until(() -> old.job(queue.value(), "parcel-2")
                        instanceof Whereabouts.InTransport found && found.sighting() instanceof JobSighting.Delayed);
                oldWorker.stop(Duration.ofSeconds(5)); // the old release goes, the new one comes

                RunningWorker newWorker = upgraded.start(queue.value());

                await().atMost(WAIT).until(() -> newWorker.counters().completed() == 1);
                assertThat(upgraded.job(queue.value(), "parcel-2")).isInstanceOfSatisfying(Whereabouts.Completed.class,
                        done -> assertThat(done.completion().attempt()).as("waiting spent no attempt").isEqualTo(1));
                assertThat(oldWorker.counters().completed()).isZero();
                assertThat(oldWorker.counters().deadLettered()).isZero();
            }
        }

        @Test
        void afterTheGraceItIsDeadNoHandlerAndAReplayRunsOnANewWorker() {
            List<DeadLetter> letters = new CopyOnWriteArrayList<>();
            try (Baton old = builder().set(NO_HANDLER_GRACE, Duration.ofSeconds(2)).onDeadLetter(letters::add)
                    .build()) {
                RunningWorker worker = old.start(queue.value());
                old.enqueue(ShippingJobs.SHIP_PARCEL, queue, JobId.of("parcel-3"), new ShipParcel("3", 300, false));

                // the worker counts a dead letter before its observers hear it: wait for the listener too
                await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1 && !letters.isEmpty());

                assertThat(letters).singleElement().satisfies(letter -> {
                    assertThat(letter.reason()).isEqualTo(DeadLetterReason.NO_HANDLER);
                    assertThat(letter.attempts()).isZero();
                    assertThat(letter.lastError().message()).isEqualTo("no handler named ship-parcel on this worker"
                            + " (its handlers: shop-orders); waited 2s for a worker that has one");
                });
                assertThat(old.job(queue.value(), "parcel-3")).isInstanceOfSatisfying(Whereabouts.DeadLettered.class,
                        dead -> assertThat(((JobOutcome.Dead) dead.outcome()).record().reason())
                                .isEqualTo(DeadLetterReason.NO_HANDLER));
            }
            try (Baton upgraded = upgraded().build()) {
                assertThat(upgraded.use(RedriveDeadLettersUseCase.class).redrive(new RedriveDeadLettersUseCase.Command(
                        queue, new DeadLetterSelection.ByReason(DeadLetterReason.NO_HANDLER)))).isOne();
                RunningWorker worker = upgraded.start(queue.value());

                await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
                assertThat(shipped).containsExactly(new ShipParcel("3", 300, false));
            }
        }
    }

    @Test
    void everyEnqueuePathCountsItsJobOnceWhenTheJobReachesItsQueue() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<String> heard = new CopyOnWriteArrayList<>();
        try (Baton baton = builder().meterRegistry(registry).observer(new JobObserver() {
            @Override
            public void jobEnqueued(Job job) {
                heard.add(job.id().value());
            }
        }).build()) {
            baton.enqueue(queue, JobId.of("direct"), "{}");
            baton.enqueueAll(List.of(command("all-1"), command("all-2")));
            Uniqueness key = Uniqueness.of("one-at-a-time");
            baton.enqueueUnique(command("unique-1"), key);
            assertThat(baton.enqueueUnique(command("unique-2"), key))
                    .isInstanceOf(EnqueueUniqueJobUseCase.Outcome.AlreadyHeld.class);
            try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl())) {
                PostgresAdapter.Outbox outbox = baton.outbox();
                connection.setAutoCommit(false);
                outbox.enqueue(connection, command("committed"));
                connection.commit();
                outbox.enqueue(connection, command("rolled-back"));
                connection.rollback();
                connection.setAutoCommit(true);
                try (PreparedStatement sql = connection.prepareStatement("SELECT " + schema + ".enqueue(?, ?, ?)")) {
                    sql.setString(1, queue.value());
                    sql.setString(2, "by-sql");
                    sql.setString(3, "{}");
                    sql.execute();
                }
            }
            assertThat(heard).as("counted when they reach the queue, not in the producer's transaction")
                    .containsExactly("direct", "all-1", "all-2", "unique-1");

            baton.enqueue(command("through-outbox"), EnqueueRoute.OUTBOX); // starts this instance's relay

            await().atMost(WAIT).until(() -> heard.size() >= 7);
            assertThat(heard).containsExactlyInAnyOrder("direct", "all-1", "all-2", "unique-1", "committed", "by-sql",
                    "through-outbox");
            assertThat(registry.find("baton.jobs.enqueued").tag("queue", queue.value()).counters())
                    .extracting(Counter::count).containsExactly(7.0);
        }
    }

    private BatonBuilder builder() {
        return Baton.builder().config(BatonScenarioTest.threeQuickAttempts("routing").with(SCHEMA, schema))
                .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl());
    }

    /** A release that has the handler of {@link ShippingJobs#SHIP_PARCEL}, and no handler named like the queue. */
    private BatonBuilder upgraded() {
        return builder().handler(ShippingJobs.SHIP_PARCEL, (parcel, context) -> {
            shipped.add(parcel);
            return Optional.empty();
        });
    }

    private EnqueueJobUseCase.Command command(String id) {
        return EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{}");
    }
}
