package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * The end of a job alone in its transaction: one statement writes the job's completion and commits, so the commit
 * costs no round trip of its own.
 */
final class CompletionCommit {
    private final LedgerTransactions transactions;
    private final CompletionTable table;

    CompletionCommit(LedgerTransactions transactions, CompletionTable table) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.table = Objects.requireNonNull(table, "table");
    }

    /**
     * Sends {@code sql}, which writes {@code completion} with the parameters {@code binder} sets and commits.
     *
     * @return {@code Committed}; {@code AlreadyCompleted} or {@code AlreadyDead} when an insert found the job's key
     *     taken (nothing committed); {@code EffectFailed} when the effect's state kept the commit from happening
     *     (everything rolled back)
     * @throws dev.baton.application.port.out.LedgerUnavailableException when the commit was not confirmed
     */
    LedgerOutcome commit(Handle handle, Completion completion, String sql, Binder binder) {
        JobId jobId = completion.jobId();
        if (!handle.isInTransaction()) {
            return new LedgerOutcome.EffectFailed(new IllegalStateException(
                    "the effect of job " + jobId + " committed or rolled back the ledger's transaction itself"));
        }
        try (PreparedStatement statement = handle.getConnection().prepareStatement(sql)) {
            binder.bind(statement);
            CompletionTable.lastUpdateCount(statement);
        } catch (SQLException e) {
            if (table.isKeyConflict(e)) {
                LedgerTransactions.rollbackQuietly(handle);
                return table.endedBefore(handle, completion.queue(), jobId).orElseThrow(() ->
                        new LedgerUnavailableException("the row of job " + jobId + " changed or vanished after a key"
                        + " conflict (a replay or the retention ran at the same time): its redelivery will find out",
                        null));
            }
            if (SqlFailures.isAbortedTransaction(e)) {
                return new LedgerOutcome.EffectFailed(new IllegalStateException(EffectRunner.leftAborted(jobId), e));
            }
            if (SqlFailures.isIntegrityViolation(e) || SqlFailures.isDeadlock(e)) {
                // a deferred constraint on the effect's writes failed at the commit, or the completion's insert
                // waited in a deadlock with the effect's locks: the server rolled it all back
                return new LedgerOutcome.EffectFailed(e);
            }
            throw unavailable("the completion of job " + jobId + " was not confirmed, it may or may not have"
                    + " committed: its redelivery will find out", e);
        }
        transactions.endCommitted(handle, jobId);
        return new LedgerOutcome.Committed(completion);
    }

    /** Sets a statement's parameters. */
    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }
}
