package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.port.out.ExecutionLedger.Effect;
import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * A redelivery: a worker may have completed the job and died before its ack, so the job is claimed first, with
 * {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE state = 'replayed'}, and a job that completed (or is dead or
 * purged) does not run again; a replayed one's row is taken over. Then the effect runs, and
 * its result goes with the commit: two round trips besides the effect's, the timeouts (when needed) travelling with
 * the claim. A worker racing on the same job blocks on the other one's uncommitted claim, then finds it committed
 * (and reports {@code AlreadyCompleted}) or rolled back (and goes on itself).
 */
final class ClaimThenRun {
    private final LedgerTransactions transactions;
    private final CompletionTable table;
    private final EffectRunner effects;
    private final CompletionCommit commits;
    private final Map<ClaimWith, String> claimSql = new EnumMap<>(ClaimWith.class);
    private final String completeSql;

    ClaimThenRun(LedgerTransactions transactions, CompletionTable table, EffectRunner effects,
                 CompletionCommit commits) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.table = Objects.requireNonNull(table, "table");
        this.effects = Objects.requireNonNull(effects, "effects");
        this.commits = Objects.requireNonNull(commits, "commits");
        String claim = "INSERT INTO " + table.name() + " AS o (" + CompletionTable.ROW_COLUMNS + ")"
                + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_id, queue) DO UPDATE SET state = 'completed',"
                + " type = EXCLUDED.type, attempt = EXCLUDED.attempt,"
                + " consumer = EXCLUDED.consumer, message_id = EXCLUDED.message_id,"
                + " completed_at = EXCLUDED.completed_at WHERE o.state = 'replayed'";
        for (ClaimWith with : ClaimWith.values()) {
            claimSql.put(with, with.ahead + claim);
        }
        this.completeSql = "UPDATE " + table.name() + " SET result = ?, completed_at = ?"
                + " WHERE job_id = ? AND queue = ?; COMMIT";
    }

    LedgerOutcome execute(Execution execution, Effect effect) {
        JobId jobId = execution.job().id();
        return transactions.inTransaction(jobId, handle -> {
            ClaimWith with = transactions.needsTimeouts(execution.deadline()) ? ClaimWith.TIMEOUTS : ClaimWith.NOTHING;
            TransactionStep reached = claimAndRun(handle, execution, effect, with);
            if (!(reached instanceof TransactionStep.Ran ran)) {
                return ((TransactionStep.Settled) reached).outcome();
            }
            Completion completion = ran.completion();
            return commits.commit(handle, completion, completeSql, statement -> {
                statement.setString(1, completion.result().orElse(null));
                statement.setObject(2, LedgerTransactions.utc(completion.completedAt()));
                statement.setString(3, jobId.value());
                statement.setString(4, completion.queue().value());
            });
        });
    }

    /**
     * Claims the job, {@code with} what rides along in the claim's round trip, and runs its effect inside
     * {@code handle}'s open transaction; commits nothing. A batch calls it once per job between savepoints.
     */
    TransactionStep claimAndRun(Handle handle, Execution execution, Effect effect, ClaimWith with) {
        JobId jobId = execution.job().id();
        if (!claim(handle, execution, with)) {
            return new TransactionStep.Settled(table.endedBefore(handle, execution.job().queue(), jobId)
                    .orElseThrow(() -> new LedgerUnavailableException("job " + jobId + " was replayed or forgotten"
                            + " while being claimed: its redelivery will find out", null)));
        }
        return effects.run(handle, execution, effect);
    }

    /**
     * @return false when the job is taken: another worker completed the job (or is completing it), or the job went
     *     to the dead letters
     */
    private boolean claim(Handle handle, Execution execution, ClaimWith with) {
        try (PreparedStatement statement = handle.getConnection().prepareStatement(claimSql.get(with))) {
            int at = 0;
            if (with == ClaimWith.TIMEOUTS) {
                transactions.bindTimeouts(statement, execution.deadline());
                at = 2;
            }
            CompletionTable.bindRow(statement, at, execution, transactions.now());
            return CompletionTable.lastUpdateCount(statement) == 1;
        } catch (SQLException e) {
            throw unavailable("could not claim job " + execution.job().id(), e);
        }
    }

    /** What travels in the claim's round trip, ahead of it. */
    enum ClaimWith {
        /** Nothing: the connection's session timeouts fit the attempt's deadline. */
        NOTHING(""),
        /** The attempt's own timeouts, the statement's first two parameters. */
        TIMEOUTS(LedgerTransactions.TIMEOUTS_SQL + "; "),
        /** The savepoint that the first job of a batch rolls back to when it does not commit. */
        FIRST_SAVEPOINT("SAVEPOINT " + SavepointBatch.SAVEPOINT + "; "),
        /** For each later job of a batch: the previous job's savepoint released, and its own set. */
        NEXT_SAVEPOINT("RELEASE SAVEPOINT " + SavepointBatch.SAVEPOINT + "; SAVEPOINT " + SavepointBatch.SAVEPOINT
                + "; ");

        private final String ahead;

        ClaimWith(String ahead) {
            this.ahead = ahead;
        }
    }
}
