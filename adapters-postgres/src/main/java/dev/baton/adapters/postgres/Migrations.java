package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.BatonException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Applies the ledger's migrations, then each extra location's, all into the Baton schema
 * (docs/POSTGRES.md#migrations). Every location keeps its own history table, so a user's versions never collide with
 * the ledger's (nor with each other's). The history tables are in Flyway's format: those of ledgers that Flyway
 * migrated read as they are.
 *
 * <p>A schema that is up to date (every location's scripts in its history) is left alone without any lock, so that a
 * worker (re)starting never waits for another session: one that froze or lost its network while it held the lock
 * would otherwise hold up every start after it. Otherwise the run holds the schema's {@link MigrationLock}: workers
 * starting together migrate one after the other, and the later ones find nothing left to do. A start waits for that
 * lock at most {@link #LOCK_WAIT}, logging who holds it, and then fails naming the holder. A run takes one connection.
 */
final class Migrations {
    /** How long a start waits for another session's migration of the schema before it fails. */
    static final Duration LOCK_WAIT = Duration.ofMinutes(5);

    private final DataSource dataSource;
    private final String schema;
    private final List<String> extraLocations;
    private final String maskedUrl;
    private final MigrationLock lock;
    private final ScriptRunner runner;

    Migrations(DataSource dataSource, String schema, List<String> extraLocations, String maskedUrl) {
        this(dataSource, schema, extraLocations, maskedUrl, LOCK_WAIT);
    }

    Migrations(DataSource dataSource, String schema, List<String> extraLocations, String maskedUrl, Duration lockWait) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.extraLocations = List.copyOf(extraLocations);
        this.maskedUrl = maskedUrl;
        this.lock = new MigrationLock(schema, lockWait);
        this.runner = new ScriptRunner(schema);
    }

    void apply() {
        try {
            List<LocationScripts> locations = read();
            try (Connection connection = dataSource.getConnection()) {
                boolean autoCommit = connection.getAutoCommit();
                connection.setAutoCommit(true);
                try {
                    migrate(connection, locations);
                } finally {
                    connection.setAutoCommit(autoCommit); // the connection may be the application's, back to its pool
                }
            }
        } catch (SQLException e) {
            throw new LedgerUnavailableException("could not migrate schema " + schema + " at " + maskedUrl
                    + " (BATON_JDBC_URL): " + JdbcUrls.masked(e.getMessage()), e);
        } catch (MigrationException e) {
            throw new BatonException("migrating schema " + schema + " at " + maskedUrl + " failed: "
                    + JdbcUrls.masked(e.getMessage()), e);
        }
    }

    /** The scripts of the ledger (on this adapter's class path), then of each extra location (on the caller's). */
    private List<LocationScripts> read() {
        ClassLoader own = Migrations.class.getClassLoader();
        ScriptFinder callers = new ScriptFinder(Optional.ofNullable(Thread.currentThread().getContextClassLoader())
                .orElse(own));
        List<LocationScripts> locations = new ArrayList<>();
        locations.add(new LocationScripts(MigrationLocation.LEDGER,
                new ScriptFinder(own).scripts(MigrationLocation.LEDGER_NAME)));
        for (String location : extraLocations) {
            locations.add(new LocationScripts(MigrationLocation.extra(location), callers.scripts(location)));
        }
        return locations;
    }

    private void migrate(Connection connection, List<LocationScripts> locations) throws SQLException {
        if (upToDate(connection, locations)) {
            return;
        }
        lock.acquire(connection);
        try {
            for (LocationScripts location : locations) {
                HistoryTable history = location.history(schema);
                history.create(connection);
                for (MigrationScript script : location.pending(connection, history)) {
                    runner.apply(connection, location.location(), history, script);
                }
            }
        } finally {
            lock.release(connection);
        }
    }

    /** Whether every location's scripts are in its history: reads the histories, and takes no lock. */
    private boolean upToDate(Connection connection, List<LocationScripts> locations) throws SQLException {
        for (LocationScripts location : locations) {
            if (!location.pending(connection, location.history(schema)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private record LocationScripts(MigrationLocation location, List<MigrationScript> scripts) {
        HistoryTable history(String schema) {
            return new HistoryTable(schema, location.historyTable());
        }

        List<MigrationScript> pending(Connection connection, HistoryTable history) throws SQLException {
            return PendingScripts.of(location, scripts, history.applied(connection));
        }
    }
}
