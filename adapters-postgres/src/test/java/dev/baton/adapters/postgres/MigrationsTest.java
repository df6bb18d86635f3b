package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.BatonException;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.ds.PGSimpleDataSource;

class MigrationsTest {
    private static final String DEMO_HISTORY = "baton_schema_history_db_postgres_adapter_test";
    @RegisterExtension
    static final TestSchema EMPTY = new TestSchema();
    @RegisterExtension
    static final TestSchema RACED = new TestSchema();
    @RegisterExtension
    static final TestSchema UNTOUCHED = new TestSchema();
    @RegisterExtension
    static final TestSchema BROKEN = new TestSchema();
    @RegisterExtension
    static final TestSchema FROM_V1 = new TestSchema();
    @RegisterExtension
    static final TestSchema FROM_V10 = new TestSchema();
    @RegisterExtension
    static final TestSchema HELD_UP_TO_DATE = new TestSchema();
    @RegisterExtension
    static final TestSchema HELD_PENDING = new TestSchema();
    @RegisterExtension
    static final TestSchema ON_APPLICATION_POOL = new TestSchema();

    @Test
    void migrationsApplyToAnEmptySchemaAndAreIdempotent() {
        PostgresAdapter.Config config = EMPTY.config().withPoolSize(1).withMigrateOnStart(false)
                .withExtraMigrationLocations(List.of(DemoShipments.LOCATION));
        try (PostgresAdapter adapter = PostgresAdapter.open(config, Clock.systemUTC())) {
            assertThat(tables(EMPTY)).isEmpty();

            adapter.migrate();
            List<String> ledgerHistory = history(EMPTY, MigrationLocation.LEDGER_HISTORY_TABLE);
            List<String> demoHistory = history(EMPTY, DEMO_HISTORY);
            adapter.migrate();

            assertThat(tables(EMPTY)).containsExactlyInAnyOrder("job_outcomes", "job_outbox", "job_outbox_epoch",
                    "job_outbox_claiming", "demo_shipments", "audit_trail",
                    MigrationLocation.LEDGER_HISTORY_TABLE, DEMO_HISTORY);
            assertThat(appliedVersions(ledgerHistory))
                    .containsExactly("1", "2", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13");
            assertThat(appliedVersions(demoHistory)).containsExactly("1");
            assertThat(history(EMPTY, MigrationLocation.LEDGER_HISTORY_TABLE)).isEqualTo(ledgerHistory);
            assertThat(history(EMPTY, DEMO_HISTORY)).isEqualTo(demoHistory);
        }
    }

    @Test
    void workersStartingAtOnceOnAnEmptySchemaSucceedAndMigrateOnce() throws Exception {
        int workers = 4;
        PostgresAdapter.Config config = RACED.config().withPoolSize(1)
                .withExtraMigrationLocations(List.of(DemoShipments.LOCATION));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(workers);
        try {
            List<Future<Boolean>> started = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                started.add(executor.submit(() -> {
                    start.await();
                    try (PostgresAdapter adapter = PostgresAdapter.open(config, Clock.systemUTC())) {
                        return adapter.isReachable();
                    }
                }));
            }
            start.countDown();
            for (Future<Boolean> worker : started) {
                assertThat(worker.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            executor.shutdownNow();
        }

        assertThat(appliedVersions(history(RACED, MigrationLocation.LEDGER_HISTORY_TABLE)))
                .containsExactly("1", "2", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13");
        assertThat(appliedVersions(history(RACED, DEMO_HISTORY))).containsExactly("1");
        assertThat(history(RACED, MigrationLocation.LEDGER_HISTORY_TABLE)).allMatch(row -> row.endsWith(":true"));
    }

    /** A worker frozen mid-migration keeps the lock: a start that has nothing to migrate must not wait for it. */
    @Test
    void aStartOnAnUpToDateSchemaDoesNotWaitForTheMigrationLock() throws Exception {
        PostgresAdapter.Config config = HELD_UP_TO_DATE.config().withPoolSize(1)
                .withExtraMigrationLocations(List.of(DemoShipments.LOCATION));
        PostgresAdapter.open(config, Clock.systemUTC()).close();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Connection holder = lockHolder(HELD_UP_TO_DATE, "frozen-worker")) {
            Future<Boolean> started = executor.submit(() -> {
                try (PostgresAdapter adapter = PostgresAdapter.open(config, Clock.systemUTC())) {
                    return adapter.isReachable();
                }
            });

            assertThat(started.get(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aStartWithMigrationsWaitsABoundedTimeAndNamesTheLocksHolder() throws Exception {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(HELD_PENDING.jdbcUrl());
        Migrations migrations = new Migrations(dataSource, HELD_PENDING.name(), List.of(), "test",
                Duration.ofMillis(200));
        try (Connection holder = lockHolder(HELD_PENDING, "frozen-worker")) {
            int holderPid = holder.unwrap(PGConnection.class).getBackendPID();

            assertThatThrownBy(migrations::apply).isInstanceOf(LedgerUnavailableException.class)
                    .hasMessageContaining("schema " + HELD_PENDING.name() + " is being migrated by another session")
                    .hasMessageContaining("pid " + holderPid + " (application 'frozen-worker'")
                    .hasMessageContaining("pg_terminate_backend");
            assertThat(schemaExists(HELD_PENDING)).isFalse();
        }

        migrations.apply(); // the holder is gone: the lock is free
        assertThat(tables(HELD_PENDING)).contains("job_outcomes", MigrationLocation.LEDGER_HISTORY_TABLE);
    }

    /** Closing a pooled connection keeps its session, and would keep the lock for every later migration to wait on. */
    @Test
    void migratingOnTheApplicationsPoolReleasesTheLock() throws SQLException {
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(ON_APPLICATION_POOL.jdbcUrl());
        hikari.setMaximumPoolSize(1); // a run takes one connection, whose session stays open in the pool
        try (HikariDataSource pool = new HikariDataSource(hikari)) {
            new Migrations(pool, ON_APPLICATION_POOL.name(), List.of(), "test").apply();

            assertThat(tables(ON_APPLICATION_POOL)).contains("job_outcomes");
            int locksHeld = ON_APPLICATION_POOL.jdbi().withHandle(handle -> handle.createQuery("SELECT count(*) FROM"
                    + " pg_locks WHERE locktype = 'advisory' AND classid = :space AND objid = :key::oid")
                    .bind("space", MigrationLock.LOCK_SPACE).bind("key", Integer.toUnsignedLong(
                            ON_APPLICATION_POOL.name().hashCode())).mapTo(int.class).one());
            assertThat(locksHeld).isZero();
        }
    }

    @Test
    void withoutMigrateOnStartTheDatabaseIsLeftAlone() {
        try (PostgresAdapter adapter = PostgresAdapter.open(
                UNTOUCHED.config().withPoolSize(1).withMigrateOnStart(false), Clock.systemUTC())) {
            assertThat(adapter.isReachable()).isTrue();
            assertThat(schemaExists(UNTOUCHED)).isFalse();
        }
    }

    @Test
    void aMissingExtraLocationFailsNamingIt() {
        PostgresAdapter.Config config = BROKEN.config().withPoolSize(1)
                .withExtraMigrationLocations(List.of("classpath:db/no-such-location"));

        assertThatThrownBy(() -> PostgresAdapter.open(config, Clock.systemUTC()))
                .isInstanceOf(BatonException.class)
                .hasMessageContaining("migrating schema " + BROKEN.name())
                .hasMessageContaining("db/no-such-location");
    }

    @Nested
    class UpgradingALedger {
        @Test
        void fromTheFirstVersionKeepsEveryCompletionAsCompleted() {
            Flyway.configure().dataSource(FROM_V1.jdbcUrl(), null, null).schemas(FROM_V1.name())
                    .defaultSchema(FROM_V1.name()).table(MigrationLocation.LEDGER_HISTORY_TABLE)
                    .locations(MigrationLocation.LEDGER_NAME).target("1").load().migrate();
            FROM_V1.jdbi().useHandle(handle -> handle.execute("INSERT INTO " + FROM_V1.name() + ".job_completions"
                    + " (job_id, queue, type, attempt, consumer, message_id, result, completed_at) VALUES"
                    + " ('old-1', 'orders', NULL, 1, 'w1', '1-0', 'shipped', '2026-01-01T00:00:00Z'),"
                    + " ('old-2', 'orders', 'refund', 3, 'w2', '2-0', NULL, '2026-01-02T00:00:00Z')"));

            try (PostgresAdapter adapter = PostgresAdapter.open(FROM_V1.config().withPoolSize(1), Clock.systemUTC())) {
                assertThat(tables(FROM_V1)).contains("job_outcomes").doesNotContain("job_completions");
                assertThat(adapter.ledger().find(QueueName.of("orders"), JobId.of("old-1"))).contains(new Completion(
                        JobId.of("old-1"), QueueName.of("orders"), Optional.empty(), 1, ConsumerName.of("w1"), "1-0",
                        Optional.of("shipped"), Instant.parse("2026-01-01T00:00:00Z")));
                assertThat(adapter.outcomes().find(QueueName.of("orders"), "old-2")).hasValueSatisfying(outcome ->
                        assertThat(((JobOutcome.Completed) outcome).completion().type()).contains("refund"));
                assertThat(adapter.ledger().countCompleted(QueueName.of("orders"))).isEqualTo(2);
            }
        }

        /** V11 scopes a job id by its queue: every row keeps its meaning, and the same id on another queue is free. */
        @Test
        void fromVersion10KeepsEveryRowAndScopesJobIdsByQueue() {
            Flyway.configure().dataSource(FROM_V10.jdbcUrl(), null, null).schemas(FROM_V10.name())
                    .defaultSchema(FROM_V10.name()).table(MigrationLocation.LEDGER_HISTORY_TABLE)
                    .locations(MigrationLocation.LEDGER_NAME).target("10").load().migrate();
            FROM_V10.jdbi().useHandle(handle -> handle.execute("INSERT INTO " + FROM_V10.name() + ".job_outcomes"
                    + " (job_id, queue, attempt, consumer, message_id, result, completed_at, state, reason, error_type,"
                    + " error_message, dead_at, state_changed_at) VALUES"
                    + " ('order-1001', 'ship', 1, 'w1', '1-0', 'shipped', '2026-01-01T00:00:00Z', 'completed',"
                    + " NULL, NULL, NULL, NULL, NULL),"
                    + " ('order-1002', 'ship', 3, 'w1', '2-0', NULL, NULL, 'dead', 'EXHAUSTED', 'java.io.IOException',"
                    + " 'reset', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z')"));
            QueueName ship = QueueName.of("ship");
            QueueName email = QueueName.of("email");

            try (PostgresAdapter adapter = PostgresAdapter.open(FROM_V10.config().withPoolSize(1), Clock.systemUTC())) {
                String primaryKey = FROM_V10.jdbi().withHandle(handle -> handle.createQuery("SELECT"
                        + " pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = CAST(:table AS regclass)"
                        + " AND conname = 'job_outcomes_pkey'")
                        .bind("table", FROM_V10.name() + ".job_outcomes").mapTo(String.class).one());
                assertThat(primaryKey).isEqualTo("PRIMARY KEY (job_id, queue)");
                assertThat(adapter.ledger().find(ship, JobId.of("order-1001"))).hasValueSatisfying(completion ->
                        assertThat(completion.result()).contains("shipped"));
                assertThat(adapter.outcomes().find(ship, "order-1002")).containsInstanceOf(JobOutcome.Dead.class);
                assertThat(mail(adapter, ship, "order-1001", 2)).isInstanceOf(LedgerOutcome.AlreadyCompleted.class);
                assertThat(mail(adapter, ship, "order-1002", 1)).isInstanceOf(LedgerOutcome.AlreadyDead.class);
                assertThat(mail(adapter, email, "order-1001", 1)).isInstanceOf(LedgerOutcome.Committed.class);
                assertThat(mail(adapter, email, "order-1002", 2)).isInstanceOf(LedgerOutcome.Committed.class);
            }
        }
    }

    private static LedgerOutcome mail(PostgresAdapter adapter, QueueName queue, String id, long deliveryCount) {
        Job job = Job.create(JobId.of(id), queue, "{}", Instant.now());
        return adapter.ledger().execute(new ExecutionLedger.Execution(job, ConsumerName.of("w2"), new DeliveryId("3-0"),
                deliveryCount, Instant.now().plusSeconds(60)), transaction -> Optional.empty());
    }

    @Test
    void everyExtraLocationKeepsItsOwnHistoryTable() {
        assertThat(MigrationLocation.historyTable("classpath:db/shipping"))
                .isEqualTo("baton_schema_history_db_shipping");
        assertThat(MigrationLocation.historyTable("filesystem:/opt/app/sql/"))
                .isEqualTo("baton_schema_history_opt_app_sql");
        String longA = "classpath:com/example/a/very/long/package/name/for/the/shipping/handlers/migrations/a";
        String longB = "classpath:com/example/a/very/long/package/name/for/the/shipping/handlers/migrations/b";
        assertThat(MigrationLocation.historyTable(longA)).hasSizeLessThanOrEqualTo(63)
                .isNotEqualTo(MigrationLocation.historyTable(longB))
                .isEqualTo(MigrationLocation.historyTable(longA));
    }

    /** A session of its own holding the schema's migration lock, as a worker that froze mid-migration would. */
    static Connection lockHolder(TestSchema schema, String applicationName) throws SQLException {
        Connection holder = DriverManager.getConnection(schema.jdbcUrl() + "&ApplicationName=" + applicationName);
        try (PreparedStatement lock = holder.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
            lock.setInt(1, MigrationLock.LOCK_SPACE);
            lock.setInt(2, schema.name().hashCode());
            lock.execute();
        }
        return holder;
    }

    private static List<String> appliedVersions(List<String> history) {
        return history.stream().filter(row -> row.contains(":SQL:")).map(row -> row.substring(0, row.indexOf(':')))
                .toList();
    }

    /** version:type:success per row, in the order applied. */
    private static List<String> history(TestSchema schema, String table) {
        return schema.jdbi().withHandle(handle -> handle.createQuery("SELECT coalesce(version, '') || ':' || type"
                        + " || ':' || success FROM " + schema.name() + "." + table + " ORDER BY installed_rank")
                .mapTo(String.class).list());
    }

    private static List<String> tables(TestSchema schema) {
        return schema.jdbi().withHandle(handle -> handle
                .createQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = :schema")
                .bind("schema", schema.name()).mapTo(String.class).list());
    }

    private static boolean schemaExists(TestSchema schema) {
        return schema.jdbi().withHandle(handle -> handle
                .createQuery("SELECT count(*) FROM pg_namespace WHERE nspname = :schema")
                .bind("schema", schema.name()).mapTo(int.class).one()) == 1;
    }
}
