package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.postgres.testing.TestSchema;
import java.sql.Connection;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ledgers that Flyway migrated, as Baton did before it had a migrator of its own, upgrade in place: their history
 * tables read as they are, and grow as Flyway would have grown them.
 */
class FlywayHistoryTest {
    private static final String LEDGER_HISTORY = MigrationLocation.LEDGER_HISTORY_TABLE;
    private static final String DEMO_HISTORY = MigrationLocation.historyTable(DemoShipments.LOCATION);
    /** The checksum Flyway recorded for V6 as it was when it still installed pg_trgm. */
    private static final int EARLIER_V6_CHECKSUM = -812538246;

    @RegisterExtension
    static final TestSchema BY_FLYWAY = new TestSchema();
    @RegisterExtension
    static final TestSchema UPGRADED = new TestSchema();
    @RegisterExtension
    static final TestSchema BY_BATON = new TestSchema();
    @RegisterExtension
    static final TestSchema EDITED = new TestSchema();

    @Test
    void aLedgerFlywayMigratedIsTakenUpWhereItStopped() {
        flyway(UPGRADED, MigrationLocation.LEDGER_NAME, LEDGER_HISTORY).target("5").load().migrate();
        flyway(UPGRADED, DemoShipments.LOCATION, DEMO_HISTORY).load().migrate();
        List<String> ledgerBefore = history(UPGRADED, LEDGER_HISTORY);
        List<String> demoBefore = history(UPGRADED, DEMO_HISTORY);

        PostgresAdapter.open(UPGRADED.config().withPoolSize(1)
                .withExtraMigrationLocations(List.of(DemoShipments.LOCATION)), Clock.systemUTC()).close();

        assertThat(ledgerBefore).extracting(FlywayHistoryTest::version).containsExactly("", "1", "2", "4", "5");
        assertThat(history(UPGRADED, LEDGER_HISTORY)).startsWith(ledgerBefore.toArray(String[]::new))
                .extracting(FlywayHistoryTest::version)
                .containsExactly("", "1", "2", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13");
        assertThat(demoBefore).extracting(FlywayHistoryTest::version).containsExactly("0", "1");
        assertThat(history(UPGRADED, DEMO_HISTORY)).isEqualTo(demoBefore);
    }

    @Test
    void theRowsBatonWritesAreTheRowsFlywayWrites() {
        flyway(BY_FLYWAY, MigrationLocation.LEDGER_NAME, LEDGER_HISTORY).load().migrate();
        PostgresAdapter.open(BY_BATON.config().withPoolSize(1), Clock.systemUTC()).close();

        List<String> byFlyway = history(BY_FLYWAY, LEDGER_HISTORY);
        assertThat(byFlyway.get(0)).startsWith("|<< Flyway Schema Creation >>|SCHEMA|"); // Baton writes no such row
        assertThat(history(BY_BATON, LEDGER_HISTORY)).isEqualTo(byFlyway.subList(1, byFlyway.size()));
        // and Flyway would take the history Baton wrote for its own
        assertThat(flyway(BY_BATON, MigrationLocation.LEDGER_NAME, LEDGER_HISTORY).load().validateWithResult()
                .validationSuccessful).isTrue();
    }

    /** V6 no longer installs pg_trgm: a ledger that ran it as it was keeps it, and a start has nothing to do. */
    @Test
    void aLedgerScriptEditedSinceItWasAppliedIsNotAppliedAgain() throws Exception {
        PostgresAdapter.Config config = EDITED.config().withPoolSize(1);
        PostgresAdapter.open(config, Clock.systemUTC()).close();
        EDITED.jdbi().useHandle(handle -> handle.execute("UPDATE " + EDITED.name() + "." + LEDGER_HISTORY
                + " SET checksum = ? WHERE version = '6'", EARLIER_V6_CHECKSUM));
        List<String> history = history(EDITED, LEDGER_HISTORY);

        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Connection holder = MigrationsTest.lockHolder(EDITED, "frozen-worker")) {
            Future<?> started = executor.submit(() -> PostgresAdapter.open(config, Clock.systemUTC()).close());

            started.get(60, TimeUnit.SECONDS); // up to date: it never waits for the lock
        } finally {
            executor.shutdownNow();
        }
        assertThat(history(EDITED, LEDGER_HISTORY)).isEqualTo(history);
    }

    /** Flyway as Baton configured it before. */
    private static FluentConfiguration flyway(TestSchema schema, String location, String historyTable) {
        return Flyway.configure().dataSource(schema.jdbcUrl(), null, null).schemas(schema.name())
                .defaultSchema(schema.name()).table(historyTable).locations(location).failOnMissingLocations(true)
                .baselineOnMigrate(true).baselineVersion("0");
    }

    /** version|description|type|script|checksum|installed_by|success of each row, in the order applied. */
    private static List<String> history(TestSchema schema, String table) {
        return schema.jdbi().withHandle(handle -> handle.createQuery("SELECT concat_ws('|', coalesce(version, ''),"
                        + " description, type, script, coalesce(checksum::text, ''), installed_by, success) FROM "
                        + schema.name() + "." + table + " ORDER BY installed_rank")
                .mapTo(String.class).list());
    }

    private static String version(String row) {
        return row.substring(0, row.indexOf('|'));
    }
}
