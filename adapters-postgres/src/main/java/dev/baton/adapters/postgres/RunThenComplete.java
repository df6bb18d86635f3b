package dev.baton.adapters.postgres;

import dev.baton.application.port.out.ExecutionLedger.Effect;
import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * A first delivery, rarely of a completed job: the effect runs first, and the completion is inserted with the commit,
 * in one round trip less than a claim would cost. A key conflict on that insert means the job completed (or went to
 * the dead letters), before or meanwhile (the insert waits for a racing worker's uncommitted row): the transaction
 * rolls back. The row of a replayed job (whose redriven entry is a first delivery) is taken over by the same insert
 * ({@code ON CONFLICT DO UPDATE}), so a replayed job runs once; the update sets any other row to a state that the
 * table's checks refuse, which fails the statement like a key conflict, and the {@code COMMIT} behind it never runs.
 */
final class RunThenComplete {
    private final LedgerTransactions transactions;
    private final CompletionTable table;
    private final EffectRunner effects;
    private final CompletionCommit commits;
    private final String insertCompletedSql;

    RunThenComplete(LedgerTransactions transactions, CompletionTable table, EffectRunner effects,
                    CompletionCommit commits) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.table = Objects.requireNonNull(table, "table");
        this.effects = Objects.requireNonNull(effects, "effects");
        this.commits = Objects.requireNonNull(commits, "commits");
        this.insertCompletedSql = "INSERT INTO " + table.name() + " AS o (" + CompletionTable.ROW_COLUMNS + ", result)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)" + CompletionTable.TAKE_OVER_REPLAYED + "; COMMIT";
    }

    LedgerOutcome execute(Execution execution, Effect effect) {
        JobId jobId = execution.job().id();
        return transactions.inTransaction(jobId, handle -> {
            transactions.setTimeoutsIfNeeded(handle, jobId, execution.deadline());
            TransactionStep reached = effects.run(handle, execution, effect);
            if (!(reached instanceof TransactionStep.Ran ran)) {
                return failedUnlessCompleted(handle, execution, ((TransactionStep.Settled) reached).outcome());
            }
            Completion completion = ran.completion();
            return commits.commit(handle, completion, insertCompletedSql, statement -> {
                CompletionTable.bindRow(statement, 0, execution, completion.completedAt());
                statement.setString(8, completion.result().orElse(null));
            });
        });
    }

    /**
     * An effect failing on a completed (or dead) job, on a unique key of its own, say, is no failure at all: the
     * ledger's record is the outcome. Not when an interruption closed the connection (see
     * {@link SqlFailures#isInterruption}): there is nothing left to look the completion up with, and the attempt failed
     * before any commit was sent.
     */
    private LedgerOutcome failedUnlessCompleted(Handle handle, Execution execution, LedgerOutcome failed) {
        if (failed instanceof LedgerOutcome.EffectFailed effectFailed
                && SqlFailures.isClosedByInterrupt(effectFailed.cause())) {
            return failed;
        }
        LedgerTransactions.rollbackQuietly(handle);
        return table.endedBefore(handle, execution.job().queue(), execution.job().id()).orElse(failed);
    }
}
