package dev.baton.adapters.postgres;

import static dev.baton.application.testing.ExecutionLedgerContract.completionOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.application.port.out.ExecutionLedger.Step;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.application.service.CompletionJanitor;
import dev.baton.application.service.JobThreads;
import dev.baton.application.testing.JobThreadChoices;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The ledger's transaction protocol on a real PostgreSQL, with a handler table written in the same transaction. */
class PostgresExecutionLedgerTest {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private static final DemoShipments SHIPMENTS = new DemoShipments(SCHEMA);
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    private static final ConsumerName CONSUMER = ConsumerName.of("worker-a");
    private static PostgresAdapter adapter;

    private final MutableClock clock = MutableClock.at(T0);
    private final ExecutionLedger ledger = adapter.ledger(clock);
    private final QueueName queue = QueueName.of("orders-" + UUID.randomUUID().toString().substring(0, 8));
    private final ExecutorService executor = Executors.newFixedThreadPool(2);

    @BeforeAll
    static void openAdapter() {
        adapter = PostgresAdapter.open(
                SCHEMA.config().withExtraMigrationLocations(List.of(DemoShipments.LOCATION)), Clock.systemUTC());
    }

    @AfterAll
    static void closeAdapter() {
        adapter.close();
    }

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    @Test
    void theHandlerRowAndTheCompletionRowCommitTogether() {
        Job job = job();
        String order = order();

        LedgerOutcome outcome = ledger.execute(execution(job, "10-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            return Optional.of("tracking-42");
        });

        Completion expected = new Completion(job.id(), queue, Optional.empty(), 1, CONSUMER, "10-0",
                Optional.of("tracking-42"), T0);
        assertThat(outcome).isEqualTo(new LedgerOutcome.Committed(expected));
        assertThat(SHIPMENTS.count(order)).isEqualTo(1);
        assertThat(completionRows(job.id())).isEqualTo(1);
    }

    @Test
    void aRedeliveryOfACompletedJobDoesNotShipAgain() {
        Job job = job();
        String order = order();
        ExecutionLedger.Effect shipping = transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            return Optional.empty();
        };
        LedgerOutcome first = ledger.execute(execution(job, "10-0"), shipping);

        LedgerOutcome redelivered = ledger.execute(redelivery(job, "11-0"), shipping);

        assertThat(redelivered).isEqualTo(new LedgerOutcome.AlreadyCompleted(completionOf(first)));
        assertThat(SHIPMENTS.count(order)).isEqualTo(1);
    }

    @Test
    void aFailingHandlerLeavesNeitherItsRowsNorACompletion() {
        Job job = job();
        String order = order();
        IllegalStateException failure = new IllegalStateException("payment declined");

        assertThat(effectFailure(ledger.execute(execution(job, "10-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            throw failure;
        }))).isSameAs(failure);

        assertThat(SHIPMENTS.count(order)).isZero();
        assertThat(completionRows(job.id())).isZero();
    }

    @Test
    void theJdbcConnectionIsTheSameTransaction() {
        Job job = job();
        String order = order();

        assertThat(effectFailure(ledger.execute(execution(job, "10-0"), transaction -> {
            Connection connection = transaction.unwrap(Connection.class);
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO demo_shipments (order_id, job_id, shipped_at) VALUES (?, ?, now())")) {
                insert.setString(1, order);
                insert.setString(2, job.id().value());
                insert.executeUpdate();
            }
            throw new IllegalStateException("fails after the JDBC write");
        })));
        assertThat(SHIPMENTS.count(order)).isZero();

        ledger.execute(execution(job, "11-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            try (var statement = transaction.unwrap(Connection.class).createStatement();
                 var xid = statement.executeQuery("SELECT txid_current()")) {
                xid.next();
                assertThat(xid.getLong(1)).isEqualTo(transaction.unwrap(Handle.class)
                        .createQuery("SELECT txid_current()").mapTo(long.class).one());
            }
            return Optional.empty();
        });
        assertThat(SHIPMENTS.count(order)).isEqualTo(1);
    }

    @Test
    void unwrappingAnotherTypeNamesHandleAndConnection() {
        ledger.execute(execution(job(), "10-0"), transaction -> {
            assertThatThrownBy(() -> transaction.unwrap(javax.sql.DataSource.class))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("org.jdbi.v3.core.Handle")
                    .hasMessageContaining("java.sql.Connection")
                    .hasMessageContaining("javax.sql.DataSource");
            return Optional.empty();
        });
    }

    /**
     * The first worker holds the claim while its effect runs. A second redelivery blocks at its claim and never runs;
     * a second first delivery runs its effect, blocks at its completion's insert, and rolls its shipment back.
     */
    @ParameterizedTest(name = "the second's delivery count: {0}")
    @ValueSource(longs = {2, 1})
    void theSecondOfTwoRacingWorkersWaitsOnTheRowLockAndSkips(long secondDeliveryCount) throws Exception {
        Job job = job();
        String order = order();
        CountDownLatch firstShipped = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        AtomicInteger secondRuns = new AtomicInteger();

        Future<LedgerOutcome> first = executor.submit(() -> ledger.execute(redelivery(job, "10-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            firstShipped.countDown();
            releaseFirst.await();
            return Optional.of("first");
        }));
        assertThat(firstShipped.await(10, TimeUnit.SECONDS)).isTrue();
        Execution racing = new Execution(job, CONSUMER, new DeliveryId("11-0"), secondDeliveryCount,
                T0.plusSeconds(60));
        Future<LedgerOutcome> second = executor.submit(() -> ledger.execute(racing, transaction -> {
            secondRuns.incrementAndGet();
            DemoShipments.ship(transaction, order, job.id().value());
            return Optional.of("second");
        }));
        // the second's claim, or its completion's insert, blocks on the first one's uncommitted completion row
        await().atMost(Duration.ofSeconds(10)).until(() -> backendsWaitingOnATransaction() == 1);
        assertThat(second).isNotDone();
        releaseFirst.countDown();

        LedgerOutcome committed = first.get(10, TimeUnit.SECONDS);
        assertThat(committed).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(second.get(10, TimeUnit.SECONDS))
                .isEqualTo(new LedgerOutcome.AlreadyCompleted(completionOf(committed)));
        assertThat(secondRuns).hasValue(racing.isRedelivery() ? 0 : 1);
        assertThat(SHIPMENTS.count(order)).isEqualTo(1);
    }

    @Test
    void aHandlerThatSwallowsAnSqlErrorFailsTheJob() {
        Job job = job();

        assertThat(effectFailure(ledger.execute(execution(job, "10-0"), transaction -> {
            try {
                transaction.unwrap(Handle.class).execute("INSERT INTO no_such_table VALUES (1)");
            } catch (RuntimeException ignored) {
                // the transaction is now aborted
            }
            return Optional.empty();
        }))).hasMessageContaining("aborted");

        assertThat(completionRows(job.id())).isZero();
    }

    /** The ways a handler could end the ledger's transaction through Jdbi or JDBC, all refused while it runs. */
    enum Ending {
        HANDLE_COMMIT(transaction -> transaction.unwrap(Handle.class).commit()),
        HANDLE_ROLLBACK(transaction -> transaction.unwrap(Handle.class).rollback()),
        CONNECTION_COMMIT(transaction -> transaction.unwrap(Connection.class).commit()),
        CONNECTION_ROLLBACK(transaction -> transaction.unwrap(Connection.class).rollback()),
        CONNECTION_AUTO_COMMIT(transaction -> transaction.unwrap(Connection.class).setAutoCommit(true)),
        CONNECTION_CLOSE(transaction -> transaction.unwrap(Connection.class).close());

        private final Attempt attempt;

        Ending(Attempt attempt) {
            this.attempt = attempt;
        }

        interface Attempt {
            void end(LedgerTransaction transaction) throws SQLException;
        }
    }

    @ParameterizedTest
    @EnumSource(Ending.class)
    void aHandlerCannotEndTheLedgersTransactionAndFailsWhenItTries(Ending ending) {
        Job job = job();
        String order = order();

        assertThat(rootCause(effectFailure(ledger.execute(execution(job, "10-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            ending.attempt.end(transaction);
            return Optional.empty();
        })))).hasMessageContaining("must not");

        assertThat(SHIPMENTS.count(order)).isZero();
        assertThat(completionRows(job.id())).isZero();
        assertThatTheRedeliveryShipsOnce(job, order);
    }

    /**
     * A handler that catches the refusal goes on in its transaction: the job commits with its rows, or (where Jdbi
     * believes its transaction ended) fails and commits nothing; never the rows without the completion.
     */
    @ParameterizedTest
    @EnumSource(Ending.class)
    void aHandlerThatCatchesTheRefusalCommitsAllOrNothing(Ending ending) {
        Job job = job();
        String order = order();

        LedgerOutcome outcome = ledger.execute(execution(job, "10-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            assertThatThrownBy(() -> ending.attempt.end(transaction)).hasStackTraceContaining("a handler must not");
            return Optional.empty();
        });

        int committed = outcome instanceof LedgerOutcome.Committed ? 1 : 0;
        assertThat(outcome).isInstanceOfAny(LedgerOutcome.Committed.class, LedgerOutcome.EffectFailed.class);
        assertThat(SHIPMENTS.count(order)).isEqualTo(committed);
        assertThat(completionRows(job.id())).isEqualTo(committed);
    }

    /**
     * {@code COMMIT} or {@code ROLLBACK} sent as SQL cannot be refused, but once the ledger's own first statement has
     * begun the transaction (here the timeouts, or the claim of a redelivery) it sees that the transaction ended and
     * fails the job for good: a completion is never recorded for an effect rolled back (nor in a transaction of its
     * own after one committed), and a retry would write a committed effect again. What stays is what the server did:
     * a committed effect, with the claim when the claim came first (a redelivery), which then counts as done.
     */
    @ParameterizedTest
    @CsvSource({
            "1, COMMIT, 1, 0",
            "1, ROLLBACK, 0, 0",
            "2, COMMIT, 1, 1",
            "2, ROLLBACK, 0, 0"})
    void aHandlerThatEndsTheTransactionWithSqlFailsTheJobForGood(int deliveryCount, String sql, int shipped,
                                                                  int completed) {
        Job job = job();
        String order = order();
        Execution execution = new Execution(job, CONSUMER, new DeliveryId("10-0"), deliveryCount, T0.plusSeconds(60));

        assertThat(effectFailure(ledger.execute(execution, transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            transaction.unwrap(Handle.class).execute(sql);
            return Optional.of("shipped");
        }))).isInstanceOf(NonRetryableException.class)
                .hasMessageContaining("ended the ledger's transaction itself");

        assertThat(SHIPMENTS.count(order)).isEqualTo(shipped);
        assertThat(completionRows(job.id())).isEqualTo(completed);
    }

    /**
     * With session timeouts nothing precedes a first delivery's effect, so the driver begins the transaction with the
     * handler's first statement: an ending is still seen, through Jdbi or through the JDBC connection.
     */
    @ParameterizedTest
    @CsvSource({
            "COMMIT, HANDLE, 1",
            "ROLLBACK, HANDLE, 0",
            "COMMIT, CONNECTION, 1",
            "ROLLBACK, CONNECTION, 0"})
    void withNothingBeforeTheHandlerItsOwnEndingIsStillSeen(String sql, String through, int shipped) {
        try (PostgresAdapter timed = withSessionTimeouts()) {
            Job job = job();
            String order = order();

            assertThat(effectFailure(timed.ledger(clock).execute(execution(job, "10-0"), transaction -> {
                if (through.equals("HANDLE")) {
                    DemoShipments.ship(transaction, order, job.id().value());
                    transaction.unwrap(Handle.class).execute(sql);
                } else {
                    Connection connection = transaction.unwrap(Connection.class);
                    try (PreparedStatement ship = connection.prepareStatement("INSERT INTO demo_shipments"
                            + " (order_id, job_id, shipped_at) VALUES (?, ?, now())")) {
                        ship.setString(1, order);
                        ship.setString(2, job.id().value());
                        ship.executeUpdate();
                    }
                    try (Statement end = connection.createStatement()) {
                        end.execute(sql);
                    }
                }
                return Optional.of("shipped");
            }))).isInstanceOf(NonRetryableException.class);

            assertThat(SHIPMENTS.count(order)).isEqualTo(shipped);
            assertThat(completionRows(job.id())).isZero();
        }
    }

    /** Nor is a handler that sends nothing, and so never begins the driver's transaction, taken for one ending it. */
    @Test
    void aHandlerThatWritesNothingCompletesWhenNoStatementPrecedesIt() {
        try (PostgresAdapter timed = withSessionTimeouts()) {
            Job job = job();

            LedgerOutcome outcome = timed.ledger(clock).execute(execution(job, "10-0"),
                    transaction -> Optional.of("nothing to write"));

            assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class);
            assertThat(completionRows(job.id())).isEqualTo(1);
        }
    }

    /** A ledger whose pooled connections carry the timeouts of a 60 s deadline: it sends nothing before an effect. */
    private static PostgresAdapter withSessionTimeouts() {
        return PostgresAdapter.open(SCHEMA.config().withTransactionTimeout(Duration.ofSeconds(60))
                .withMigrateOnStart(false), Clock.systemUTC());
    }

    @Test
    void aConstraintFailingAtCommitFailsTheJobAndCommitsNothing() {
        Job job = job();

        assertThat(effectFailure(ledger.execute(execution(job, "10-0"), transaction -> {
            DemoShipments.ship(transaction, DemoShipments.REJECT_AT_COMMIT, job.id().value());
            return Optional.empty();
        }))).hasMessageContaining("cannot ship");

        assertThat(SHIPMENTS.count(DemoShipments.REJECT_AT_COMMIT)).isZero();
        assertThat(completionRows(job.id())).isZero();
    }

    @Test
    void theTransactionRunsReadCommittedWithTimeoutsFromTheDeadline() {
        Job job = job();
        Execution execution = new Execution(job, CONSUMER, new DeliveryId("10-0"), 1, T0.plusSeconds(45));

        LedgerOutcome outcome = ledger.execute(execution, transaction -> {
            Handle handle = transaction.unwrap(Handle.class);
            return Optional.of(handle.createQuery("SELECT current_setting('transaction_isolation') || ' '"
                    + " || current_setting('statement_timeout') || ' '"
                    + " || current_setting('idle_in_transaction_session_timeout')").mapTo(String.class).one());
        });

        assertThat(completionOf(outcome).result()).contains("read committed 45s 45s");
    }

    @Test
    void sessionTimeoutsStayWhenAtMostATenthAboveTheDeadline() {
        try (PostgresAdapter timed = PostgresAdapter.open(SCHEMA.config()
                .withTransactionTimeout(Duration.ofSeconds(50)).withMigrateOnStart(false), Clock.systemUTC())) {
            ExecutionLedger timedLedger = timed.ledger(clock);

            assertThat(timeoutsSeenWithin(timedLedger, 46)).isEqualTo("50s 50s");
            assertThat(timeoutsSeenWithin(timedLedger, 50)).isEqualTo("50s 50s");
            assertThat(timeoutsSeenWithin(timedLedger, 44)).isEqualTo("44s 44s");
            assertThat(timeoutsSeenWithin(timedLedger, 60)).isEqualTo("1min 1min");
        }
    }

    private String timeoutsSeenWithin(ExecutionLedger timedLedger, int secondsToDeadline) {
        Execution execution = new Execution(job(), CONSUMER, new DeliveryId("10-0"), 1,
                T0.plusSeconds(secondsToDeadline));
        LedgerOutcome outcome = timedLedger.execute(execution, transaction -> Optional.of(
                transaction.unwrap(Handle.class).createQuery("SELECT current_setting('statement_timeout') || ' '"
                        + " || current_setting('idle_in_transaction_session_timeout')").mapTo(String.class).one()));
        return completionOf(outcome).result().orElseThrow();
    }

    @Test
    void aStatementRunningPastTheDeadlineIsCancelledAndFailsTheJob() {
        Job job = job();
        String order = order();
        Execution execution = new Execution(job, CONSUMER, new DeliveryId("10-0"), 1, T0.plusSeconds(1));

        assertThat(rootCause(effectFailure(ledger.execute(execution, transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            transaction.unwrap(Handle.class).createQuery("SELECT pg_sleep(30)").mapTo(String.class).one();
            return Optional.empty();
        })))).isInstanceOfSatisfying(SQLException.class,
                cancelled -> assertThat(cancelled.getSQLState()).isEqualTo("57014"));

        assertThat(SHIPMENTS.count(order)).isZero();
        assertThat(completionRows(job.id())).isZero();
    }

    /**
     * The worker interrupts a job at its deadline (or its stop). On a virtual thread the JDK then closes the socket the
     * job waits on, which reads as a lost connection; on a platform thread the statement runs on until the deadline's
     * statement_timeout. Either way the transaction died before any commit was sent: the attempt failed.
     */
    @ParameterizedTest(name = "{0} thread, delivery count {1}")
    @MethodSource("threadsAndDeliveryCounts")
    void anInterruptedWaitOnPostgresFailsTheAttemptAndCommitsNothing(JobThreads threads, long deliveryCount)
            throws Exception {
        Job job = job();
        String order = order();
        Execution execution = new Execution(job, CONSUMER, new DeliveryId("10-0"), deliveryCount, T0.plusSeconds(2));
        AtomicInteger pid = new AtomicInteger();
        AtomicReference<Thread> thread = new AtomicReference<>();
        CompletableFuture<LedgerOutcome> outcome = CompletableFuture.supplyAsync(() -> ledger.execute(execution,
                transaction -> {
                    DemoShipments.ship(transaction, order, job.id().value());
                    pid.set(backendPid(transaction));
                    transaction.unwrap(Handle.class).createQuery("SELECT pg_sleep(30)").mapTo(String.class).one();
                    return Optional.empty();
                }), task -> thread.set(start(threads, task)));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> pid.get() != 0 && isSleeping(pid.get()));

        thread.get().interrupt();

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(LedgerOutcome.EffectFailed.class);
        assertThat(SHIPMENTS.count(order)).isZero();
        assertThat(completionRows(job.id())).isZero();
        assertThatTheRedeliveryShipsOnce(job, order);
    }

    /** Each kind of thread this runtime has (virtual ones on Java 21+), with a first delivery and a redelivery. */
    static Stream<Arguments> threadsAndDeliveryCounts() {
        return JobThreadChoices.ofThisRuntime().map(choice -> choice.resolve(1)).distinct()
                .flatMap(threads -> Stream.of(Arguments.of(threads, 1L), Arguments.of(threads, 2L)));
    }

    /** Virtual threads are reached reflectively: Baton is built for Java 17. */
    private static Thread start(JobThreads threads, Runnable task) {
        if (threads == JobThreads.PLATFORM) {
            Thread thread = new Thread(task);
            thread.start();
            return thread;
        }
        try {
            return (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this runtime has no virtual threads", e);
        }
    }

    @Nested
    class WhenTheConnectionIsKilled {
        @Test
        void duringTheEffectTheLedgerIsUnavailableAndCommitsNothing() {
            Job job = job();
            String order = order();

            assertThat(unknown(ledger.execute(execution(job, "10-0"), transaction -> {
                DemoShipments.ship(transaction, order, job.id().value());
                terminate(backendPid(transaction));
                DemoShipments.ship(transaction, order, job.id().value());
                return Optional.empty();
            }))).hasMessageContaining(job.id().value());

            assertThat(SHIPMENTS.count(order)).isZero();
            assertThat(completionRows(job.id())).isZero();
            assertThatTheRedeliveryShipsOnce(job, order);
        }

        @Test
        void justBeforeCommitTheLedgerIsUnavailableAndCommitsNothing() {
            Job job = job();
            String order = order();

            assertThat(unknown(ledger.execute(execution(job, "10-0"), transaction -> {
                DemoShipments.ship(transaction, order, job.id().value());
                terminate(backendPid(transaction));
                return Optional.of("done");
            })));

            assertThat(SHIPMENTS.count(order)).isZero();
            assertThat(completionRows(job.id())).isZero();
            assertThatTheRedeliveryShipsOnce(job, order);
        }

        @Test
        void duringCommitTheOutcomeIsLeftToTheRedelivery() throws Exception {
            Job job = job();
            AtomicInteger pid = new AtomicInteger();
            Future<LedgerOutcome> execution;
            try (Handle commitGate = SHIPMENTS.holdCommits()) {
                execution = executor.submit(() -> ledger.execute(execution(job, "10-0"), transaction -> {
                    pid.set(backendPid(transaction));
                    DemoShipments.ship(transaction, DemoShipments.HOLD_COMMIT, job.id().value());
                    return Optional.empty();
                }));
                // the COMMIT runs the deferred trigger, which waits for the gate's advisory lock
                await().atMost(Duration.ofSeconds(10)).until(() -> pid.get() != 0 && isWaitingInCommit(pid.get()));
                terminate(pid.get());
            }

            assertThat(unknown(execution.get(10, TimeUnit.SECONDS))).hasMessageContaining("not confirmed");
            assertThat(SHIPMENTS.count(DemoShipments.HOLD_COMMIT)).isZero();
            assertThat(completionRows(job.id())).isZero();
            assertThat(ledger.execute(redelivery(job, "11-0"), transaction -> Optional.empty()))
                    .isInstanceOf(LedgerOutcome.Committed.class);
        }
    }

    @Test
    void forgettingDeletesOnlyExpiredCompletionsInBatches() {
        ExecutionLedger smallBatches = adapter.ledger(clock, 2);
        QueueName retained = QueueName.of("retention-" + UUID.randomUUID().toString().substring(0, 8));
        clock.set(Instant.parse("2000-01-01T00:00:00Z"));
        for (int i = 0; i < 5; i++) {
            smallBatches.execute(execution(job(retained), i + "-0"), transaction -> Optional.empty());
        }
        Instant cutoff = clock.advance(Duration.ofHours(1));
        Job atTheCutoff = job(retained);
        smallBatches.execute(execution(atTheCutoff, "5-0"), transaction -> Optional.empty());

        long forgotten = smallBatches.forgetCompletedBefore(cutoff);

        assertThat(forgotten).isEqualTo(5);
        assertThat(smallBatches.countCompleted(retained)).isEqualTo(1);
        assertThat(smallBatches.find(retained, atTheCutoff.id())).isPresent();
        assertThat(smallBatches.forgetCompletedBefore(cutoff)).isZero();
    }

    @Test
    void theJanitorForgetsWhatOutlivedTheRetentionPlusItsSlack() {
        MutableClock adapterClock = MutableClock.at(T0);
        PostgresAdapter.Config config = SCHEMA.config().withPoolSize(1).withMigrateOnStart(false)
                .withRetention(new Retention(Duration.ofDays(2)));
        try (PostgresAdapter retaining = PostgresAdapter.open(config, adapterClock)) {
            CompletionJanitor janitor = new CompletionJanitor(retaining.ledger(), config.retention(), adapterClock,
                    Duration.ofMinutes(10));
            Job expired = job();
            retaining.ledger().execute(execution(expired, "10-0"), transaction -> Optional.empty());
            adapterClock.advance(Duration.ofDays(1));
            Job kept = job();
            retaining.ledger().execute(execution(kept, "11-0"), transaction -> Optional.empty());
            adapterClock.advance(Duration.ofDays(1).plus(CompletionJanitor.SLACK).plusSeconds(1));

            assertThat(janitor.runOnce()).isGreaterThanOrEqualTo(1);
            assertThat(ledger.find(queue, expired.id())).isEmpty();
            assertThat(ledger.find(queue, kept.id())).isPresent();
        }
    }

    @Nested
    class InABatch {
        @Test
        void aJobThatSwallowsAnSqlErrorFailsAloneAndTheOthersCommit() {
            List<Job> jobs = List.of(job(), job(), job());
            List<String> orders = List.of(order(), order(), order());

            List<LedgerOutcome> outcomes = ledger.executeAll(List.of(
                    shipping(jobs.get(0), orders.get(0)),
                    new Step(execution(jobs.get(1), "2-0"), transaction -> {
                        DemoShipments.ship(transaction, orders.get(1), jobs.get(1).id().value());
                        try {
                            transaction.unwrap(Handle.class).execute("INSERT INTO no_such_table VALUES (1)");
                        } catch (RuntimeException ignored) {
                            // the transaction is now aborted, back to this job's savepoint
                        }
                        return Optional.empty();
                    }),
                    shipping(jobs.get(2), orders.get(2))));

            assertThat(outcomes.get(0)).isInstanceOf(LedgerOutcome.Committed.class);
            assertThat(outcomes.get(1)).isInstanceOfSatisfying(LedgerOutcome.EffectFailed.class,
                    failed -> assertThat(failed.cause()).hasMessageContaining("aborted"));
            assertThat(outcomes.get(2)).isInstanceOf(LedgerOutcome.Committed.class);
            assertThat(List.of(SHIPMENTS.count(orders.get(0)), SHIPMENTS.count(orders.get(1)),
                    SHIPMENTS.count(orders.get(2)))).containsExactly(1, 0, 1);
            assertThat(jobs.stream().map(job -> completionRows(job.id())).toList()).containsExactly(1, 0, 1);
        }

        @Test
        void aKilledConnectionCommitsNoneOfItsJobs() {
            List<Job> jobs = List.of(job(), job(), job());
            List<String> orders = List.of(order(), order(), order());

            assertThat(unknownBatch(ledger.executeAll(List.of(shipping(jobs.get(0), orders.get(0)),
                    shipping(jobs.get(1), orders.get(1)),
                    new Step(execution(jobs.get(2), "3-0"), transaction -> {
                        DemoShipments.ship(transaction, orders.get(2), jobs.get(2).id().value());
                        terminate(backendPid(transaction));
                        return Optional.empty();
                    })))));

            assertThat(orders).allSatisfy(order -> assertThat(SHIPMENTS.count(order)).isZero());
            assertThat(jobs).allSatisfy(job -> assertThat(completionRows(job.id())).isZero());
            assertThatTheRedeliveryShipsOnce(jobs.get(0), orders.get(0));
        }

        @Test
        void aConstraintFailingAtCommitFailsEveryJob() {
            List<Job> jobs = List.of(job(), job());
            String order = order();

            List<LedgerOutcome> outcomes = ledger.executeAll(List.of(shipping(jobs.get(0), order),
                    shipping(jobs.get(1), DemoShipments.REJECT_AT_COMMIT)));

            assertThat(outcomes)
                    .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.EffectFailed.class));
            assertThat(SHIPMENTS.count(order)).isZero();
            assertThat(jobs).allSatisfy(job -> assertThat(completionRows(job.id())).isZero());
        }

        @Test
        void aHandlerTryingToRollBackFailsAloneAndTheOthersCommit() {
            List<Job> jobs = List.of(job(), job());
            String order = order();

            List<LedgerOutcome> outcomes = ledger.executeAll(List.of(shipping(jobs.get(0), order),
                    new Step(execution(jobs.get(1), "2-0"), transaction -> {
                        transaction.unwrap(Handle.class).rollback();
                        return Optional.empty();
                    })));

            assertThat(outcomes.get(0)).isInstanceOf(LedgerOutcome.Committed.class);
            assertThat(outcomes.get(1)).isInstanceOfSatisfying(LedgerOutcome.EffectFailed.class,
                    failed -> assertThat(rootCause(failed.cause())).hasMessageContaining("must not"));
            assertThat(SHIPMENTS.count(order)).isEqualTo(1);
            assertThat(completionRows(jobs.get(1).id())).isZero();
        }

        @Test
        void aRedeliveryEndingTheTransactionWithSqlMakesItAllUnknown() {
            List<Job> jobs = List.of(job(), job());
            String order = order();

            assertThat(unknownBatch(ledger.executeAll(List.of(shipping(jobs.get(0), order),
                    new Step(redelivery(jobs.get(1), "2-0"), transaction -> {
                        transaction.unwrap(Handle.class).execute("ROLLBACK");
                        return Optional.empty();
                    }))))).hasMessageContaining("ended the batch");

            assertThat(SHIPMENTS.count(order)).isZero();
            assertThat(jobs).allSatisfy(job -> assertThat(completionRows(job.id())).isZero());
        }
    }

    private static Step shipping(Job job, String order) {
        return new Step(execution(job, "1-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            return Optional.of("shipped");
        });
    }

    private void assertThatTheRedeliveryShipsOnce(Job job, String order) {
        LedgerOutcome redelivered = ledger.execute(redelivery(job, "11-0"), transaction -> {
            DemoShipments.ship(transaction, order, job.id().value());
            return Optional.empty();
        });
        assertThat(redelivered).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(SHIPMENTS.count(order)).isEqualTo(1);
    }

    private Job job() {
        return job(queue);
    }

    private static Job job(QueueName queue) {
        return Job.create(JobId.of("order-" + UUID.randomUUID()), queue, "{}", T0);
    }

    private static String order() {
        return "order-" + UUID.randomUUID();
    }

    /** The first delivery of a stream entry: the ledger runs the effect before it writes the completion. */
    private static Execution execution(Job job, String deliveryId) {
        return new Execution(job, CONSUMER, new DeliveryId(deliveryId), 1, T0.plusSeconds(60));
    }

    /** An entry delivered before: the ledger claims the job before it runs the effect. */
    private static Execution redelivery(Job job, String deliveryId) {
        return new Execution(job, CONSUMER, new DeliveryId(deliveryId), 2, T0.plusSeconds(60));
    }

    private static int backendPid(LedgerTransaction transaction) {
        return transaction.unwrap(Handle.class).createQuery("SELECT pg_backend_pid()").mapTo(int.class).one();
    }

    /** Kills a backend from another connection, and waits (up to 10 s) until it is gone. */
    private static void terminate(int pid) {
        boolean terminated = SCHEMA.jdbi().withHandle(handle -> handle
                .createQuery("SELECT pg_terminate_backend(:pid, 10000)").bind("pid", pid).mapTo(boolean.class).one());
        assertThat(terminated).as("backend %d terminated", pid).isTrue();
    }

    private static boolean isSleeping(int pid) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE pid = :pid AND wait_event = 'PgSleep'")
                .bind("pid", pid).mapTo(int.class).one()) == 1;
    }

    private static boolean isWaitingInCommit(int pid) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE pid = :pid AND wait_event = 'advisory' AND query LIKE '%COMMIT'")
                .bind("pid", pid).mapTo(int.class).one()) == 1;
    }

    private static int backendsWaitingOnATransaction() {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE wait_event = 'transactionid' AND query LIKE :claim")
                .bind("claim", "%INSERT INTO " + SCHEMA.name() + ".job_outcomes%")
                .mapTo(int.class).one());
    }

    private static int completionRows(JobId id) {
        return SCHEMA.jdbi().withHandle(handle -> handle
                .createQuery("SELECT count(*) FROM " + SCHEMA.name() + ".job_outcomes WHERE job_id = :id")
                .bind("id", id.value()).mapTo(int.class).one());
    }

    /** What the effect failed with: the outcome must be {@link LedgerOutcome.EffectFailed}. */
    private static Throwable effectFailure(LedgerOutcome outcome) {
        assertThat(outcome).isInstanceOf(LedgerOutcome.EffectFailed.class);
        return ((LedgerOutcome.EffectFailed) outcome).cause();
    }

    /** Why the outcome is unknown: it must be {@link LedgerOutcome.Unknown}. */
    private static LedgerUnavailableException unknown(LedgerOutcome outcome) {
        assertThat(outcome).isInstanceOf(LedgerOutcome.Unknown.class);
        return ((LedgerOutcome.Unknown) outcome).failure();
    }

    /** Why a batch's outcome is unknown: every job's outcome must be {@link LedgerOutcome.Unknown}. */
    private static LedgerUnavailableException unknownBatch(List<LedgerOutcome> outcomes) {
        assertThat(outcomes).isNotEmpty().allSatisfy(outcome -> assertThat(outcome)
                .isInstanceOf(LedgerOutcome.Unknown.class));
        return unknown(outcomes.get(0));
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root;
    }
}
