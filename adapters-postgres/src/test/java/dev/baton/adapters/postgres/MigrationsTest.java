package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.domain.BatonException;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.QueueName;
import java.time.Clock;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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

    @Test
    void migrationsApplyToAnEmptySchemaAndAreIdempotent() {
        PostgresAdapter.Config config = EMPTY.config().withPoolSize(1).withMigrateOnStart(false)
                .withExtraMigrationLocations(List.of(DemoShipments.LOCATION));
        try (PostgresAdapter adapter = PostgresAdapter.open(config, Clock.systemUTC())) {
            assertThat(tables(EMPTY)).isEmpty();

            adapter.migrate();
            List<String> ledgerHistory = history(EMPTY, Migrations.LEDGER_HISTORY_TABLE);
            List<String> demoHistory = history(EMPTY, DEMO_HISTORY);
            adapter.migrate();

            assertThat(tables(EMPTY)).containsExactlyInAnyOrder("job_outcomes", "job_outbox", "job_outbox_epoch", "job_outbox_claiming",
                    "demo_shipments",
                    Migrations.LEDGER_HISTORY_TABLE, DEMO_HISTORY);
            assertThat(appliedVersions(ledgerHistory)).containsExactly("1", "2", "4", "5", "6", "7", "8", "9", "10");
            assertThat(appliedVersions(demoHistory)).containsExactly("1");
            assertThat(history(EMPTY, Migrations.LEDGER_HISTORY_TABLE)).isEqualTo(ledgerHistory);
            assertThat(history(EMPTY, DEMO_HISTORY)).isEqualTo(demoHistory);
        }
    }

    @Test
    void workersStartingTogetherOnAnEmptySchemaAllSucceedAndMigrateOnce() throws Exception {
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

        assertThat(appliedVersions(history(RACED, Migrations.LEDGER_HISTORY_TABLE)))
                .containsExactly("1", "2", "4", "5", "6", "7", "8", "9", "10");
        assertThat(appliedVersions(history(RACED, DEMO_HISTORY))).containsExactly("1");
        assertThat(history(RACED, Migrations.LEDGER_HISTORY_TABLE)).allMatch(row -> row.endsWith(":true"));
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

    @Test
    void upgradingALedgerOfTheFirstVersionKeepsEveryCompletionAsCompleted() {
        Flyway.configure().dataSource(FROM_V1.jdbcUrl(), null, null).schemas(FROM_V1.name())
                .defaultSchema(FROM_V1.name()).table(Migrations.LEDGER_HISTORY_TABLE)
                .locations(Migrations.LEDGER_LOCATION).target("1").load().migrate();
        FROM_V1.jdbi().useHandle(handle -> handle.execute("INSERT INTO " + FROM_V1.name() + ".job_completions"
                + " (job_id, queue, type, attempt, consumer, message_id, result, completed_at) VALUES"
                + " ('old-1', 'orders', NULL, 1, 'w1', '1-0', 'shipped', '2026-01-01T00:00:00Z'),"
                + " ('old-2', 'orders', 'refund', 3, 'w2', '2-0', NULL, '2026-01-02T00:00:00Z')"));

        try (PostgresAdapter adapter = PostgresAdapter.open(FROM_V1.config().withPoolSize(1), Clock.systemUTC())) {
            assertThat(tables(FROM_V1)).contains("job_outcomes").doesNotContain("job_completions");
            assertThat(adapter.ledger().find(JobId.of("old-1"))).contains(new Completion(JobId.of("old-1"),
                    QueueName.of("orders"), Optional.empty(), 1, ConsumerName.of("w1"), "1-0", Optional.of("shipped"),
                    Instant.parse("2026-01-01T00:00:00Z")));
            assertThat(adapter.outcomes().find("old-2")).hasValueSatisfying(outcome ->
                    assertThat(((JobOutcome.Completed) outcome).completion().type()).contains("refund"));
            assertThat(adapter.ledger().countCompleted(QueueName.of("orders"))).isEqualTo(2);
        }
    }

    @Test
    void everyExtraLocationKeepsItsOwnHistoryTable() {
        assertThat(Migrations.historyTable("classpath:db/shipping")).isEqualTo("baton_schema_history_db_shipping");
        assertThat(Migrations.historyTable("filesystem:/opt/app/sql/")).isEqualTo("baton_schema_history_opt_app_sql");
        String longA = "classpath:com/example/a/very/long/package/name/for/the/shipping/handlers/migrations/a";
        String longB = "classpath:com/example/a/very/long/package/name/for/the/shipping/handlers/migrations/b";
        assertThat(Migrations.historyTable(longA)).hasSizeLessThanOrEqualTo(63)
                .isNotEqualTo(Migrations.historyTable(longB))
                .isEqualTo(Migrations.historyTable(longA));
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
