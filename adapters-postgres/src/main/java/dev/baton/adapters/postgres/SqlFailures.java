package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerUnavailableException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.nio.channels.ClosedByInterruptException;
import java.sql.SQLException;
import java.util.Optional;
import org.postgresql.util.PSQLException;

/**
 * Reads PostgreSQL SQLSTATEs out of an exception chain (Jdbi and handlers wrap the driver's exceptions), and turns a
 * failure of the ledger into the port's {@link LedgerUnavailableException}.
 */
final class SqlFailures {
    private SqlFailures() {
    }

    /**
     * True when the connection is gone: class 08 (connection exception) or 57P01..57P03 (the backend was terminated,
     * for example by {@code pg_terminate_backend}, a crash or a shutdown).
     */
    static boolean isConnectionLoss(Throwable failure) {
        return hasState(failure, "08") || hasState(failure, "57P0");
    }

    /**
     * True when the failure comes from an interruption of the thread: on a virtual thread, interrupting a read closes
     * the socket the driver waits on, so the worker's deadline (or its stop) shows up as a lost connection. Such a
     * transaction died before any commit was sent: its outcome is known, and the attempt failed.
     */
    static boolean isInterruption(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause instanceof InterruptedIOException
                    || cause instanceof ClosedByInterruptException
                    || cause instanceof SocketException && "Closed by interrupt".equals(cause.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when an interruption closed the connection ({@link #isInterruption}): the transaction died before any
     * commit was sent, and nothing more can be sent on that connection.
     */
    static boolean isClosedByInterrupt(Throwable failure) {
        return isConnectionLoss(failure) && isInterruption(failure);
    }

    /** True when a statement failed because the transaction was already aborted by an earlier error (25P02). */
    static boolean isAbortedTransaction(Throwable failure) {
        return hasState(failure, "25P02");
    }

    /** True for an integrity constraint violation (class 23), for example a deferred constraint checked at commit. */
    static boolean isIntegrityViolation(Throwable failure) {
        return hasState(failure, "23");
    }

    /** True when the server broke a deadlock by rolling this transaction back (40P01). */
    static boolean isDeadlock(Throwable failure) {
        return hasState(failure, "40P01");
    }

    /** True for a unique violation (23505) of the constraint {@code schema.constraint}. */
    static boolean isUniqueViolationOf(Throwable failure, String schema, String constraint) {
        return sqlException(failure)
                .filter(PSQLException.class::isInstance)
                .map(sql -> ((PSQLException) sql).getServerErrorMessage())
                .filter(server -> "23505".equals(server.getSQLState()) && schema.equals(server.getSchema())
                        && constraint.equals(server.getConstraint()))
                .isPresent();
    }

    /** True for a check violation (23514) on the table {@code schema.table}. */
    static boolean isCheckViolationOn(Throwable failure, String schema, String table) {
        return sqlException(failure)
                .filter(PSQLException.class::isInstance)
                .map(sql -> ((PSQLException) sql).getServerErrorMessage())
                .filter(server -> "23514".equals(server.getSQLState()) && schema.equals(server.getSchema())
                        && table.equals(server.getTable()))
                .isPresent();
    }

    /** The driver's exception inside {@code failure}, if any. */
    static Optional<SQLException> sqlException(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return Optional.of(sql);
            }
        }
        return Optional.empty();
    }

    static LedgerUnavailableException unavailable(String message, Throwable cause) {
        return new LedgerUnavailableException(message + ": " + reason(cause), cause);
    }

    /** The driver's message (SQLSTATE and server text) without Jdbi's statement dump, which may hold job data. */
    private static String reason(Throwable failure) {
        return sqlException(failure)
                .map(sql -> sql.getMessage() + " [SQLSTATE " + sql.getSQLState() + "]")
                .orElseGet(() -> String.valueOf(failure.getMessage()));
    }

    private static boolean hasState(Throwable failure, String prefix) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                for (SQLException next = sql; next != null; next = next.getNextException()) {
                    if (next.getSQLState() != null && next.getSQLState().startsWith(prefix)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
