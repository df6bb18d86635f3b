package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.adapters.postgres.ClaimThenRun.ClaimWith;
import dev.baton.application.port.out.ExecutionLedger.Step;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.postgresql.PGStatement;
import org.postgresql.core.TransactionState;

/**
 * Many jobs in one transaction, one savepoint per job: a job whose effect fails, or that completed already, is rolled
 * back to its savepoint alone; the rest commit together (one WAL flush). Every job is claimed first, as a redelivery
 * is, and the claims are taken in the order of the ledger's key (job id, then queue), so two batches sharing jobs
 * wait for each other instead of deadlocking. A job costs one round trip besides its effect's (release, savepoint and
 * claim together); the results travel with the commit. It takes every batch with a redelivery in it, and a batch of
 * first deliveries that did not commit on {@link OptimisticBatch}'s path.
 */
final class SavepointBatch {
    static final String SAVEPOINT = "baton_job";

    private final LedgerTransactions transactions;
    private final ClaimThenRun claims;
    private final String completeAllSql;

    SavepointBatch(LedgerTransactions transactions, CompletionTable table, ClaimThenRun claims) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.claims = Objects.requireNonNull(claims, "claims");
        this.completeAllSql = "UPDATE " + table.name() + " AS c SET result = r.result, completed_at = r.completed_at"
                + "::timestamptz FROM unnest(?::text[], ?::text[], ?::text[], ?::text[])"
                + " AS r(job_id, queue, result, completed_at) WHERE c.job_id = r.job_id AND c.queue = r.queue; COMMIT";
    }

    /** One outcome per step, in the order of {@code steps}. */
    List<LedgerOutcome> execute(List<Step> steps) {
        List<Integer> byJobId = byJobId(steps);
        JobId first = jobId(steps.get(byJobId.get(0)));
        Instant earliest = steps.stream().map(step -> step.execution().deadline()).min(Comparator.naturalOrder())
                .orElseThrow();
        return transactions.inTransaction(first, handle -> {
            transactions.setTimeoutsIfNeeded(handle, first, earliest);
            TransactionStep[] reached = new TransactionStep[steps.size()];
            ClaimWith with = ClaimWith.FIRST_SAVEPOINT;
            for (int i : byJobId) {
                reached[i] = claimAndRun(handle, steps.get(i), with);
                with = ClaimWith.NEXT_SAVEPOINT;
            }
            Optional<LedgerOutcome.EffectFailed> rejected = commit(handle, first, Arrays.stream(reached)
                    .filter(TransactionStep.Ran.class::isInstance)
                    .map(one -> ((TransactionStep.Ran) one).completion())
                    .toList());
            return Arrays.stream(reached).map(one -> outcome(one, rejected)).toList();
        });
    }

    /**
     * The positions of {@code steps} in the order in which every batch takes its jobs' locks, the order of the
     * ledger's key (job id, then queue), so that two batches sharing jobs wait for each other instead of deadlocking.
     */
    static List<Integer> byJobId(List<Step> steps) {
        Comparator<Integer> byKey = Comparator.comparing(i -> jobId(steps.get(i)).value());
        return IntStream.range(0, steps.size()).boxed()
                .sorted(byKey.thenComparing(i -> steps.get(i).execution().job().queue().value()))
                .toList();
    }

    /** Claims and runs one job after its savepoint; rolls back to the savepoint when the job will not commit. */
    private TransactionStep claimAndRun(Handle handle, Step step, ClaimWith with) {
        JobId jobId = jobId(step);
        TransactionStep reached = claims.claimAndRun(handle, step.execution(), step.effect(), with);
        TransactionState state = LedgerTransactions.transactionState(handle, jobId);
        if (state == TransactionState.IDLE) {
            throw new LedgerUnavailableException("the effect of job " + jobId + " ended the batch's transaction"
                    + " itself: the outcome of the jobs before it is unknown", null);
        }
        if (state == TransactionState.FAILED && reached instanceof TransactionStep.Ran) {
            // no statement of its own follows this job's effect to find out: the driver knows
            reached = TransactionStep.Settled.failed(new IllegalStateException(EffectRunner.leftAborted(jobId)));
        }
        if (reached instanceof TransactionStep.Settled) {
            try (Statement statement = handle.getConnection().createStatement()) {
                statement.execute("ROLLBACK TO SAVEPOINT " + SAVEPOINT);
            } catch (SQLException e) {
                throw unavailable("could not roll back the savepoint of job " + jobId, e);
            }
        }
        return reached;
    }

    /**
     * Records the results and commits, in one round trip. A deferred constraint failing at the commit rolls back
     * every job: @return that failure, which every job's outcome then is
     */
    private Optional<LedgerOutcome.EffectFailed> commit(Handle handle, JobId firstJob, List<Completion> completions) {
        try {
            completeAllAndCommit(handle.getConnection(), completions);
        } catch (SQLException e) {
            if (SqlFailures.isIntegrityViolation(e)) {
                // a deferred constraint on the effects' writes failed at the commit: the server rolled it all back
                return Optional.of(new LedgerOutcome.EffectFailed(e));
            }
            throw unavailable("the commit of the batch of job " + firstJob + " was not confirmed, it may or may not"
                    + " have happened: the redeliveries will find out", e);
        }
        transactions.endCommitted(handle, firstJob);
        return Optional.empty();
    }

    private void completeAllAndCommit(Connection connection, List<Completion> completions) throws SQLException {
        if (completions.isEmpty()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("COMMIT");
            }
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(completeAllSql)) {
            // planned each time with its arrays: a cached generic plan, made while the table was small, would join
            // with a sequential scan of the whole ledger for ever after
            statement.unwrap(PGStatement.class).setPrepareThreshold(0);
            statement.setArray(1, connection.createArrayOf("text",
                    completions.stream().map(completion -> completion.jobId().value()).toArray()));
            statement.setArray(2, connection.createArrayOf("text",
                    completions.stream().map(completion -> completion.queue().value()).toArray()));
            statement.setArray(3, connection.createArrayOf("text",
                    completions.stream().map(completion -> completion.result().orElse(null)).toArray()));
            statement.setArray(4, connection.createArrayOf("text",
                    completions.stream().map(completion -> completion.completedAt().toString()).toArray()));
            CompletionTable.lastUpdateCount(statement);
        }
    }

    /**
     * A job's outcome once the batch committed, or once {@code rejected} rolled the batch back: then every job failed
     * and will be retried, a duplicate too (it may have been a duplicate of a job of this very batch, which did not
     * commit after all), but for the jobs that failed on their own.
     */
    private static LedgerOutcome outcome(TransactionStep reached, Optional<LedgerOutcome.EffectFailed> rejected) {
        if (reached instanceof TransactionStep.Settled settled
                && (rejected.isEmpty() || settled.outcome() instanceof LedgerOutcome.EffectFailed)) {
            return settled.outcome();
        }
        return rejected.<LedgerOutcome>map(failure -> failure)
                .orElseGet(() -> new LedgerOutcome.Committed(((TransactionStep.Ran) reached).completion()));
    }

    private static JobId jobId(Step step) {
        return step.execution().job().id();
    }
}
