package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.BatonException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the ledger's Flyway migrations, then each extra location's, all into the Baton schema. Every location keeps
 * its own history table, so a user's versions never collide with the ledger's (nor with each other's).
 *
 * <p>A schema that is up to date (every location validates: all applied, none changed) is left alone without any
 * lock, so that a worker (re)starting never waits for another session: one that froze or lost its network while it
 * held the lock would otherwise hold up every start after it. Otherwise the run holds one advisory lock per schema:
 * workers starting together migrate one after the other, and the later ones find nothing left to do. A start waits
 * for that lock at most {@link #LOCK_WAIT}, logging who holds it, and then fails naming the holder.
 */
final class Migrations {
    static final String LEDGER_LOCATION = "classpath:dev/baton/adapters/postgres/migration";
    static final String LEDGER_HISTORY_TABLE = "baton_schema_history";
    /** How long a start waits for another session's migration of the schema before it fails. */
    static final Duration LOCK_WAIT = Duration.ofMinutes(5);
    // first key of pg_advisory_lock(int, int); the second is the schema's hash
    static final int LOCK_SPACE = 0x4261746E;

    private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
    private static final String EXTRA_HISTORY_PREFIX = LEDGER_HISTORY_TABLE + "_";
    private static final int MAX_IDENTIFIER_LENGTH = 63;
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    private static final String HOLDER_SQL = "SELECT a.pid, a.application_name, host(a.client_addr), a.state,"
            + " a.state_change FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory'"
            + " AND l.granted AND l.classid = CAST(? AS bigint)::oid AND l.objid = CAST(? AS bigint)::oid"
            + " AND l.objsubid = 2";

    private final DataSource dataSource;
    private final String schema;
    private final Map<String, String> historyTables = new LinkedHashMap<>();
    private final String maskedUrl;
    private final Duration lockWait;

    Migrations(DataSource dataSource, String schema, List<String> extraLocations, String maskedUrl) {
        this(dataSource, schema, extraLocations, maskedUrl, LOCK_WAIT);
    }

    Migrations(DataSource dataSource, String schema, List<String> extraLocations, String maskedUrl, Duration lockWait) {
        this.dataSource = dataSource;
        this.schema = schema;
        historyTables.put(LEDGER_LOCATION, LEDGER_HISTORY_TABLE);
        extraLocations.forEach(location -> historyTables.put(location, historyTable(location)));
        this.maskedUrl = maskedUrl;
        this.lockWait = lockWait;
    }

    void apply() {
        if (upToDate()) {
            return;
        }
        try (Connection lockHolder = dataSource.getConnection()) {
            lock(lockHolder);
            try {
                historyTables.forEach((location, table) -> flyway(location, table).migrate());
            } finally {
                unlock(lockHolder);
            }
        } catch (SQLException e) {
            throw new LedgerUnavailableException("could not migrate schema " + schema + " at " + maskedUrl
                    + " (BATON_JDBC_URL): " + JdbcUrls.masked(e.getMessage()), e);
        } catch (FlywayException e) {
            throw new BatonException("migrating schema " + schema + " at " + maskedUrl + " failed: "
                    + JdbcUrls.masked(e.getMessage()), e);
        }
    }

    /** Whether every location validates: Flyway's validation reads the histories and takes no lock. */
    private boolean upToDate() {
        try {
            return historyTables.entrySet().stream()
                    .allMatch(location -> flyway(location.getKey(), location.getValue()).validateWithResult()
                            .validationSuccessful);
        } catch (FlywayException e) {
            return false; // the migration under the lock says what is wrong
        }
    }

    /** Takes the schema's migration lock, a session lock, waiting for it at most {@code lockWait}. */
    private void lock(Connection holder) throws SQLException {
        if (advisory(holder, "pg_try_advisory_lock")) {
            return;
        }
        String heldBy = holderOf(holder);
        LOG.info("waiting up to {} for the migration lock of schema {}, held by {}", lockWait, schema, heldBy);
        try (Statement session = holder.createStatement()) {
            session.execute("SET lock_timeout = " + Math.max(1, lockWait.toMillis()));
            try {
                advisory(holder, "pg_advisory_lock");
            } catch (SQLException e) {
                if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    throw e;
                }
                throw new LedgerUnavailableException("schema " + schema + " is being migrated by another session"
                        + " that kept its lock for longer than " + lockWait + ": " + heldBy + ". If that session is"
                        + " stuck (a process frozen or cut off mid-migration), end it with pg_terminate_backend(pid)",
                        e);
            } finally {
                session.execute("RESET lock_timeout"); // the session may be the application's, back to its pool
            }
        }
    }

    /**
     * Releases the lock: closing the connection would not when it goes back to the application's pool. A failure
     * leaves it to the connection's end, which a broken connection (the likely cause) meets soon.
     */
    private void unlock(Connection holder) {
        try {
            advisory(holder, "pg_advisory_unlock");
        } catch (SQLException e) {
            LOG.warn("could not release the migration lock of schema {}; it ends with its session: {}", schema,
                    JdbcUrls.masked(e.getMessage()));
        }
    }

    /**
     * Calls {@code function(LOCK_SPACE, schema hash)} on the schema's advisory lock.
     *
     * @return false when it returned false (a lock another session holds, a lock not held); true otherwise
     */
    private boolean advisory(Connection holder, String function) throws SQLException {
        try (PreparedStatement call = holder.prepareStatement("SELECT " + function + "(?, ?)::text")) {
            call.setInt(1, LOCK_SPACE);
            call.setInt(2, schema.hashCode());
            try (ResultSet result = call.executeQuery()) {
                // pg_advisory_lock returns void, an empty text: that it returned means the lock is held
                return result.next() && !"false".equals(result.getString(1));
            }
        }
    }

    /** The session holding the schema's migration lock, as an operator would look it up. */
    private String holderOf(Connection connection) throws SQLException {
        try (PreparedStatement holder = connection.prepareStatement(HOLDER_SQL)) {
            holder.setLong(1, Integer.toUnsignedLong(LOCK_SPACE));
            holder.setLong(2, Integer.toUnsignedLong(schema.hashCode()));
            try (ResultSet row = holder.executeQuery()) {
                if (!row.next()) {
                    return "a session that just released it";
                }
                return "PostgreSQL session pid " + row.getInt(1) + " (application '" + row.getString(2)
                        + "', client " + row.getString(3) + ", " + row.getString(4) + " since "
                        + row.getObject(5, OffsetDateTime.class) + ")";
            }
        }
    }

    private Flyway flyway(String location, String historyTable) {
        return Flyway.configure()
                .dataSource(dataSource)
                .schemas(schema)
                .defaultSchema(schema)
                .table(historyTable)
                .locations(location)
                .failOnMissingLocations(true)
                // the schema is shared by several histories (and may hold the user's own tables): a location's
                // first run starts its history below its V1 instead of refusing a non-empty schema
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load();
    }

    /**
     * The history table of an extra migration location, derived from the location so that it stays stable across
     * restarts: {@code classpath:db/shipping} keeps its history in {@code baton_schema_history_db_shipping}.
     */
    static String historyTable(String location) {
        String slug = location.replaceFirst("^(classpath|filesystem):", "")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "_")
                .replaceAll("^_+|_+$", "");
        String name = EXTRA_HISTORY_PREFIX + slug;
        if (slug.isEmpty() || name.length() > MAX_IDENTIFIER_LENGTH) {
            CRC32 crc = new CRC32();
            crc.update(location.getBytes(StandardCharsets.UTF_8));
            String suffix = "_" + HexFormat.of().toHexDigits((int) crc.getValue());
            name = name.substring(0, Math.min(name.length(), MAX_IDENTIFIER_LENGTH - suffix.length())) + suffix;
        }
        return name.replace("__", "_");
    }
}
