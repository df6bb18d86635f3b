package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.domain.JobId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction around a job (or a batch) on a pooled connection, READ COMMITTED (the pool's isolation): opening and
 * beginning it, the server's timeouts from the attempt's deadline, and an end that never commits by accident.
 */
final class LedgerTransactions {
    /** The attempt's deadline as the transaction's timeouts: two parameters, bound by {@link #bindTimeouts}. */
    static final String TIMEOUTS_SQL = "SELECT set_config('statement_timeout', ?, true),"
            + " set_config('idle_in_transaction_session_timeout', ?, true)";

    private static final Logger LOG = LoggerFactory.getLogger(LedgerTransactions.class);
    // statement_timeout is an int of milliseconds
    private static final Duration MAX_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);
    // an attempt that starts at (or after) its deadline still gets this long, so the ledger's own statements can
    // finish and report cleanly instead of failing with a timeout of their own
    private static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);

    private final Jdbi jdbi;
    private final Clock clock;
    /** The timeouts every pooled connection already has, if the pool sets them (see {@code Config}). */
    private final Optional<Duration> sessionTimeout;
    /**
     * The schema each transaction puts first on its own {@code search_path}, when the connections are the
     * application's: Baton's pool sets it once per connection instead, and an application's session is not ours to
     * change.
     */
    private final Optional<String> transactionSchema;

    LedgerTransactions(Jdbi jdbi, Clock clock, Optional<Duration> sessionTimeout, Optional<String> transactionSchema) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sessionTimeout = Objects.requireNonNull(sessionTimeout, "session timeout");
        this.transactionSchema = Objects.requireNonNull(transactionSchema, "transaction schema");
    }

    /**
     * Runs {@code work} in a transaction of its own, named after {@code jobId} in failures; whatever {@code work} did
     * not commit rolls back. The driver sends {@code BEGIN} with the first statement.
     */
    <T> T inTransaction(JobId jobId, Function<Handle, T> work) {
        Handle handle = open(jobId);
        try {
            begin(handle, jobId);
            return work.apply(handle);
        } finally {
            rollbackQuietly(handle);
            closeQuietly(handle);
        }
    }

    private Handle open(JobId jobId) {
        try {
            return jdbi.open();
        } catch (JdbiException e) {
            throw unavailable("no ledger connection for job " + jobId, e);
        }
    }

    private void begin(Handle handle, JobId jobId) {
        try {
            handle.begin();
            transactionSchema.ifPresent(schema -> handle.createQuery("SELECT set_config('search_path', concat_ws(', ', "
                    + ":schema, nullif(current_setting('search_path'), '')), true)").bind("schema", schema)
                    .mapTo(String.class).one());
        } catch (JdbiException e) {
            throw unavailable("could not start the ledger transaction of job " + jobId, e);
        }
    }

    /**
     * Whether the transaction must set its own timeouts: not when the connection's session timeouts are at least the
     * time left and at most a tenth longer. A transaction usually starts shortly into its attempt, so this saves one
     * statement per job. A deadline further out than the session's would otherwise be cut short.
     */
    boolean needsTimeouts(Instant deadline) {
        if (sessionTimeout.isEmpty()) {
            return true;
        }
        Duration remaining = Duration.between(clock.instant(), deadline);
        Duration session = sessionTimeout.get();
        return remaining.compareTo(session) > 0 || remaining.compareTo(session.minus(session.dividedBy(10))) < 0;
    }

    /** The server ends the transaction (and frees its locks) once the attempt's deadline has passed. */
    void setTimeoutsIfNeeded(Handle handle, JobId jobId, Instant deadline) {
        if (!needsTimeouts(deadline)) {
            return;
        }
        try (PreparedStatement statement = handle.getConnection().prepareStatement(TIMEOUTS_SQL)) {
            bindTimeouts(statement, deadline);
            statement.executeQuery().close();
        } catch (SQLException e) {
            throw unavailable("could not start the ledger transaction of job " + jobId, e);
        }
    }

    /** Binds the two parameters of {@link #TIMEOUTS_SQL}, the first two of {@code statement}. */
    void bindTimeouts(PreparedStatement statement, Instant deadline) throws SQLException {
        Duration remaining = Duration.between(clock.instant(), deadline);
        String timeoutMillis = Long.toString(remaining.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT.toMillis()
                : Math.max(MIN_TIMEOUT.toMillis(), remaining.toMillis()));
        statement.setString(1, timeoutMillis);
        statement.setString(2, timeoutMillis);
    }

    /**
     * Ends Jdbi's transaction once the ledger's own statement has sent {@code COMMIT} with the results, saving a round
     * trip: the driver sees no open transaction and sends nothing more.
     */
    void endCommitted(Handle handle, JobId jobId) {
        try {
            handle.commit();
        } catch (JdbiException e) {
            throw unavailable("the commit of job " + jobId
                    + " was not confirmed, it may or may not have happened: its redelivery will find out", e);
        }
    }

    /**
     * Rolls back the connection's transaction, and fails when that is not confirmed: the ledger runs effects again
     * only once their first run can no longer commit.
     */
    static void rollback(Handle handle, JobId jobId) {
        try {
            handle.getConnection().rollback();
        } catch (SQLException e) {
            throw unavailable("could not roll back the batch of job " + jobId, e);
        }
    }

    /** The driver's state, not Jdbi's: a {@code COMMIT} or {@code ROLLBACK} sent as SQL does not end Jdbi's. */
    static TransactionState transactionState(Handle handle, JobId jobId) {
        try {
            return handle.getConnection().unwrap(BaseConnection.class).getTransactionState();
        } catch (SQLException e) {
            throw unavailable("could not check the transaction of job " + jobId, e);
        }
    }

    /**
     * Ends Jdbi's transaction, then rolls back on the connection itself whatever Jdbi believed: should a handler have
     * ended Jdbi's transaction (through its {@code Handle}'s raw connection, which is not guarded), closing the handle
     * would restore auto-commit, which commits. The driver sends nothing when no transaction is open.
     */
    static void rollbackQuietly(Handle handle) {
        try {
            if (handle.isInTransaction()) {
                handle.rollback();
            }
            Connection connection = handle.getConnection();
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        } catch (JdbiException | SQLException e) {
            // the connection is gone: the server has rolled back already
            LOG.debug("rollback failed", e);
        }
    }

    private static void closeQuietly(Handle handle) {
        try {
            handle.close();
        } catch (JdbiException e) {
            LOG.debug("closing the ledger connection failed", e);
        }
    }

    /** PostgreSQL keeps microseconds: truncating first makes the returned completion equal to the stored one. */
    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
