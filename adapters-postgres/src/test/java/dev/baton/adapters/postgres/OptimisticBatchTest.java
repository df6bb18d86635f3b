package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.application.port.out.ExecutionLedger.Step;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A batch of first deliveries on a real PostgreSQL: no claim and no savepoint, the completions inserted together with
 * the commit, and every other case run again through the savepoint batch. The statements the ledger sends are counted
 * on the connections it gets.
 */
class OptimisticBatchTest {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private static final DemoShipments SHIPMENTS = new DemoShipments(SCHEMA);
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");
    private static final ConsumerName CONSUMER = ConsumerName.of("worker-a");
    private static final AtomicInteger STATEMENTS = new AtomicInteger();
    private static PostgresAdapter adapter;

    private final ExecutionLedger ledger = adapter.ledger(MutableClock.at(T0));
    private final QueueName queue = QueueName.of("orders-" + UUID.randomUUID().toString().substring(0, 8));
    /** Every job id of a test starts with it, so that a test knows the job-id order its jobs run in. */
    private final String prefix = "order-" + UUID.randomUUID() + "-";

    @BeforeAll
    static void openAdapter() {
        PGSimpleDataSource server = new PGSimpleDataSource();
        server.setUrl(SCHEMA.jdbcUrl());
        adapter = PostgresAdapter.open(SCHEMA.config().withExtraMigrationLocations(List.of(DemoShipments.LOCATION)),
                counting(server), Clock.systemUTC());
    }

    @AfterAll
    static void closeAdapter() {
        adapter.close();
    }

    @Test
    void firstDeliveriesCostOneStatementPerJobBesidesOneJobsCost() {
        int alone = statementsOf(() -> assertThat(ledger.execute(shipping(job(0)).execution(),
                shipping(job(0)).effect())).isInstanceOf(LedgerOutcome.Committed.class));
        List<Job> jobs = jobs(1, 8);

        int batch = statementsOf(() -> assertThat(ledger.executeAll(jobs.stream().map(this::shipping).toList()))
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class)));

        assertThat(batch).as("the effects' statements, one each, and what one job alone costs besides its effect")
                .isEqualTo(jobs.size() + alone - 1);
        assertThat(jobs).allSatisfy(job -> {
            assertThat(SHIPMENTS.count(orderOf(job))).isEqualTo(1);
            assertThat(ledger.find(queue, job.id())).hasValueSatisfying(
                    completion -> assertThat(completion.result()).contains("shipped " + orderOf(job)));
        });
    }

    @Test
    void aFailingEffectInTheMiddleFailsAloneAndTheOthersCommit() {
        List<Job> jobs = jobs(0, 3);
        IllegalStateException failure = new IllegalStateException("payment declined");

        List<LedgerOutcome> outcomes = ledger.executeAll(List.of(shipping(jobs.get(0)),
                new Step(execution(jobs.get(1)), transaction -> {
                    ship(transaction, jobs.get(1));
                    throw failure;
                }),
                shipping(jobs.get(2))));

        assertThat(outcomes.get(0)).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(outcomes.get(1)).isEqualTo(new LedgerOutcome.EffectFailed(failure));
        assertThat(outcomes.get(2)).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(shipments(jobs)).containsExactly(1, 0, 1);
        assertThat(completed(jobs)).containsExactly(true, false, true);
    }

    /** The last job's: no effect's statement after it finds the transaction aborted, the driver's state tells. */
    @Test
    void anEffectAbortingTheTransactionFailsAloneAndTheOthersCommit() {
        List<Job> jobs = jobs(0, 3);

        List<LedgerOutcome> outcomes = ledger.executeAll(List.of(shipping(jobs.get(0)), shipping(jobs.get(1)),
                new Step(execution(jobs.get(2)), transaction -> {
                    ship(transaction, jobs.get(2));
                    try {
                        transaction.unwrap(Handle.class).execute("INSERT INTO no_such_table VALUES (1)");
                    } catch (RuntimeException swallowed) {
                        // the transaction is aborted now
                    }
                    return Optional.empty();
                })));

        assertThat(outcomes.subList(0, 2))
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class));
        assertThat(outcomes.get(2)).isInstanceOfSatisfying(LedgerOutcome.EffectFailed.class,
                failed -> assertThat(failed.cause()).hasMessageContaining("left its transaction aborted"));
        assertThat(shipments(jobs)).containsExactly(1, 1, 0);
        assertThat(completed(jobs)).containsExactly(true, true, false);
    }

    @Test
    void aCompletedJobIsReportedItsWritesRollBackAndTheOthersCommit() {
        List<Job> jobs = jobs(0, 3);
        LedgerOutcome before = ledger.execute(execution(jobs.get(1)), transaction -> Optional.of("earlier"));

        List<LedgerOutcome> outcomes = ledger.executeAll(jobs.stream().map(this::shipping).toList());

        assertThat(outcomes.get(1)).isEqualTo(new LedgerOutcome.AlreadyCompleted(
                ((LedgerOutcome.Committed) before).completion()));
        assertThat(List.of(outcomes.get(0), outcomes.get(2)))
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class));
        assertThat(shipments(jobs)).containsExactly(1, 0, 1);
        assertThat(ledger.find(queue, jobs.get(1).id())).hasValueSatisfying(
                completion -> assertThat(completion.result()).contains("earlier"));
    }

    @Test
    void aReplayedJobsRowIsTakenOverInTheSameStatement() {
        List<Job> jobs = jobs(0, 2);
        replayed(jobs.get(1));

        int batch = statementsOf(() -> assertThat(ledger.executeAll(jobs.stream().map(this::shipping).toList()))
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class)));

        assertThat(batch).as("no fallback: the effects, the timeouts, the search path and the insert")
                .isEqualTo(jobs.size() + 3);
        assertThat(shipments(jobs)).containsExactly(1, 1);
        assertThat(state(jobs.get(1))).isEqualTo("completed");
        assertThat(ledger.find(queue, jobs.get(1).id())).hasValueSatisfying(
                completion -> assertThat(completion.result()).contains("shipped " + orderOf(jobs.get(1))));
    }

    @Test
    void aBatchWithARedeliveryClaimsEveryJobBeforeItsEffect() {
        List<Job> jobs = jobs(0, 2);
        ledger.execute(execution(jobs.get(0)), transaction -> Optional.empty());
        AtomicInteger runs = new AtomicInteger();

        List<LedgerOutcome> outcomes = ledger.executeAll(List.of(
                new Step(new Execution(jobs.get(0), CONSUMER, new DeliveryId("2-0"), 2, T0.plusSeconds(60)),
                        transaction -> {
                            runs.incrementAndGet();
                            return Optional.empty();
                        }),
                shipping(jobs.get(1))));

        assertThat(outcomes.get(0)).isInstanceOf(LedgerOutcome.AlreadyCompleted.class);
        assertThat(outcomes.get(1)).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(runs).as("the completed job's effect").hasValue(0);
        assertThat(shipments(jobs)).containsExactly(0, 1);
    }

    @Nested
    class WhenAnEffectEndsTheTransactionWithSql {
        @Test
        void itAndTheJobsBeforeItFailForGoodAndTheJobsAfterItCommit() {
            List<Job> jobs = jobs(0, 3);

            List<LedgerOutcome> outcomes = ledger.executeAll(List.of(shipping(jobs.get(0)),
                    new Step(execution(jobs.get(1)), transaction -> {
                        transaction.unwrap(Handle.class).execute("COMMIT");
                        return Optional.empty();
                    }),
                    shipping(jobs.get(2))));

            assertThat(outcomes.subList(0, 2)).allSatisfy(outcome -> assertThat(outcome)
                    .isInstanceOfSatisfying(LedgerOutcome.EffectFailed.class, failed -> assertThat(failed.cause())
                            .isInstanceOf(NonRetryableException.class).hasMessageContaining("ended the batch's")));
            assertThat(outcomes.get(2)).isInstanceOf(LedgerOutcome.Committed.class);
            assertThat(shipments(jobs)).as("the first job's, committed by the second's COMMIT, and the third's")
                    .containsExactly(1, 0, 1);
            assertThat(completed(jobs)).containsExactly(false, false, true);
        }

        /**
         * On the ledger's own pool, whose session timeouts fit the deadline, nothing precedes the first effect: only
         * its own writes are in doubt, and the jobs after it commit.
         */
        @Test
        void theFirstFailsAloneForGoodAndIsNotRunAgain() {
            List<Job> jobs = jobs(0, 3);
            PostgresAdapter.Config config = SCHEMA.config().withPoolSize(1).withMigrateOnStart(false)
                    .withTransactionTimeout(Duration.ofSeconds(60));
            try (PostgresAdapter ownPool = PostgresAdapter.open(config, Clock.systemUTC())) {
                List<LedgerOutcome> outcomes = ownPool.ledger(MutableClock.at(T0)).executeAll(List.of(
                        new Step(execution(jobs.get(0)), transaction -> {
                            ship(transaction, jobs.get(0));
                            transaction.unwrap(Handle.class).execute("COMMIT");
                            return Optional.empty();
                        }),
                        shipping(jobs.get(1)), shipping(jobs.get(2))));

                assertThat(outcomes.get(0)).isInstanceOfSatisfying(LedgerOutcome.EffectFailed.class,
                        failed -> assertThat(failed.cause()).isInstanceOf(NonRetryableException.class));
                assertThat(outcomes.subList(1, 3))
                        .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class));
            }
            assertThat(shipments(jobs)).as("the first job's committed by its own COMMIT, once")
                    .containsExactly(1, 1, 1);
            assertThat(completed(jobs)).containsExactly(false, true, true);
        }
    }

    @Test
    void aTimedOutEffectFailsAloneAndTheOthersCommit() {
        List<Job> jobs = jobs(0, 3);
        Instant deadline = T0.plusSeconds(1);

        List<LedgerOutcome> outcomes = ledger.executeAll(List.of(shipping(jobs.get(0), deadline),
                new Step(execution(jobs.get(1), deadline), transaction -> {
                    ship(transaction, jobs.get(1));
                    transaction.unwrap(Handle.class).createQuery("SELECT pg_sleep(30)").mapTo(String.class).one();
                    return Optional.empty();
                }),
                shipping(jobs.get(2), deadline)));

        assertThat(outcomes.get(1)).isInstanceOfSatisfying(LedgerOutcome.EffectFailed.class, failed -> assertThat(
                SqlFailures.sqlException(failed.cause()).orElseThrow().getSQLState()).isEqualTo("57014"));
        assertThat(List.of(outcomes.get(0), outcomes.get(2)))
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class));
        assertThat(shipments(jobs)).containsExactly(1, 0, 1);
    }

    @Test
    void sameFirstDeliveriesInOppositeOrderCommitEachJobOnce() throws Exception {
        List<Job> jobs = jobs(0, 20);
        List<Job> reversed = new ArrayList<>(jobs);
        Collections.reverse(reversed);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try {
            List<Future<List<LedgerOutcome>>> batches = new ArrayList<>();
            for (List<Job> order : List.of(jobs, reversed)) {
                batches.add(executor.submit(() -> {
                    start.await();
                    return ledger.executeAll(order.stream().map(this::shipping).toList());
                }));
            }
            start.countDown();
            List<LedgerOutcome> all = new ArrayList<>();
            for (Future<List<LedgerOutcome>> batch : batches) {
                all.addAll(batch.get(30, TimeUnit.SECONDS));
            }

            assertThat(all).filteredOn(LedgerOutcome.Committed.class::isInstance).hasSize(jobs.size());
            assertThat(all).filteredOn(LedgerOutcome.AlreadyCompleted.class::isInstance).hasSize(jobs.size());
            assertThat(shipments(jobs)).containsOnly(1);
        } finally {
            executor.shutdownNow();
        }
    }

    /** Jobs {@code from} to {@code to} (exclusive), in job-id order. */
    private List<Job> jobs(int from, int to) {
        return IntStream.range(from, to).mapToObj(this::job).toList();
    }

    private Job job(int index) {
        return Job.create(JobId.of(prefix + (char) ('a' + index)), queue, "{}", T0);
    }

    private static String orderOf(Job job) {
        return "shipment-of-" + job.id().value();
    }

    private Step shipping(Job job) {
        return shipping(job, T0.plusSeconds(60));
    }

    private Step shipping(Job job, Instant deadline) {
        return new Step(execution(job, deadline), transaction -> {
            ship(transaction, job);
            return Optional.of("shipped " + orderOf(job));
        });
    }

    private static void ship(LedgerTransaction transaction, Job job) {
        DemoShipments.ship(transaction, orderOf(job), job.id().value());
    }

    private static Execution execution(Job job) {
        return execution(job, T0.plusSeconds(60));
    }

    private static Execution execution(Job job, Instant deadline) {
        return new Execution(job, CONSUMER, new DeliveryId("1-0"), 1, deadline);
    }

    private static List<Integer> shipments(List<Job> jobs) {
        return jobs.stream().map(job -> SHIPMENTS.count(orderOf(job))).toList();
    }

    private List<Boolean> completed(List<Job> jobs) {
        return jobs.stream().map(job -> ledger.find(queue, job.id()).isPresent()).toList();
    }

    /** The row a dead job has once an operator replayed it. */
    private void replayed(Job job) {
        SCHEMA.jdbi().useHandle(handle -> handle.createUpdate("INSERT INTO " + SCHEMA.name() + ".job_outcomes"
                        + " (job_id, queue, attempt, consumer, message_id, state, reason, error_type, dead_at,"
                        + " state_changed_at) VALUES (:job, :queue, 3, 'worker-z', '0-1', 'replayed',"
                        + " 'MAX_ATTEMPTS', 'java.io.IOException', now(), now())")
                .bind("job", job.id().value()).bind("queue", queue.value()).execute());
    }

    private static String state(Job job) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT state FROM " + SCHEMA.name()
                + ".job_outcomes WHERE job_id = :job").bind("job", job.id().value()).mapTo(String.class).one());
    }

    /** How many statements the ledger sent while {@code work} ran (on this test's connections, one test at a time). */
    private static int statementsOf(Runnable work) {
        STATEMENTS.set(0);
        work.run();
        return STATEMENTS.get();
    }

    /** {@code server}'s connections, each execution of one of their statements counted: one round trip each. */
    private static DataSource counting(DataSource server) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = invoke(server, method, args);
                    return result instanceof Connection connection ? countingStatements(connection) : result;
                });
    }

    private static Connection countingStatements(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(connection, method, args);
                    if (result instanceof Statement statement && !method.getName().equals("unwrap")) {
                        return Proxy.newProxyInstance(Statement.class.getClassLoader(),
                                new Class<?>[] {method.getReturnType()}, (p, m, a) -> {
                                    if (m.getName().startsWith("execute")) {
                                        STATEMENTS.incrementAndGet();
                                    }
                                    return invoke(statement, m, a);
                                });
                    }
                    return result;
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
