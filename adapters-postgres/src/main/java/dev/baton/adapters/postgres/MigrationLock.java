package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema's migration lock: a session-level advisory lock keyed by {@link #LOCK_SPACE} and the schema's hash, so
 * that workers starting together migrate one after the other. Its key never changes: every Baton version that
 * migrates a schema, the earlier ones that ran Flyway included, takes the same lock.
 */
final class MigrationLock {
    /** First key of pg_advisory_lock(int, int); the second is the schema's hash. */
    static final int LOCK_SPACE = 0x4261746E;

    private static final Logger LOG = LoggerFactory.getLogger(MigrationLock.class);
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    private static final String HOLDER_SQL = "SELECT a.pid, a.application_name, host(a.client_addr), a.state,"
            + " a.state_change FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory'"
            + " AND l.granted AND l.classid = CAST(? AS bigint)::oid AND l.objid = CAST(? AS bigint)::oid"
            + " AND l.objsubid = 2";

    private final String schema;
    private final Duration wait;

    MigrationLock(String schema, Duration wait) {
        this.schema = schema;
        this.wait = wait;
    }

    /**
     * Takes the lock on {@code holder}'s session, waiting for it at most the configured time and logging who holds it.
     *
     * @throws LedgerUnavailableException when another session kept it longer, naming that session
     */
    void acquire(Connection holder) throws SQLException {
        if (advisory(holder, "pg_try_advisory_lock")) {
            return;
        }
        String heldBy = holderOf(holder);
        LOG.info("waiting up to {} for the migration lock of schema {}, held by {}", wait, schema, heldBy);
        try (Statement session = holder.createStatement()) {
            session.execute("SET lock_timeout = " + Math.max(1, wait.toMillis()));
            try {
                advisory(holder, "pg_advisory_lock");
            } catch (SQLException e) {
                if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    throw e;
                }
                throw new LedgerUnavailableException("schema " + schema + " is being migrated by another session"
                        + " that kept its lock for longer than " + wait + ": " + heldBy + ". If that session is"
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
    void release(Connection holder) {
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
}
