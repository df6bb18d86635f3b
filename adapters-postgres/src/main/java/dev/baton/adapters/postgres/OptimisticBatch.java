package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.out.ExecutionLedger.Step;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.postgresql.core.TransactionState;

/**
 * A batch of first deliveries, run as {@link RunThenComplete} runs one: every effect in job-id order, with no claim
 * and no savepoint, then all the completions in one {@code INSERT ... SELECT FROM unnest(...)}, in job-id order, sent
 * with the {@code COMMIT} in one round trip. A job costs only its effect's round trips, the batch one more. The insert
 * takes a replayed job's row over and fails on any other existing row, as {@link RunThenComplete}'s does.
 *
 * <p>Anything but every effect returning on a healthy transaction and the insert succeeding (an effect that
 * throws, times out or leaves the transaction aborted, a job that completed before, a deadlock on the insert) rolls
 * the whole transaction back and runs the same steps through {@link SavepointBatch}, which isolates each job: the
 * effects run again only once the rollback is confirmed, so nothing commits twice. An effect that ends the
 * transaction with SQL may have committed the effects before it without their completions: those jobs, and it, fail
 * for good (not retried), and the jobs after it go through {@link SavepointBatch}.
 */
final class OptimisticBatch {
    private final LedgerTransactions transactions;
    private final EffectRunner effects;
    private final CompletionTable table;
    private final SavepointBatch fallback;
    private final String insertAllSql;

    OptimisticBatch(LedgerTransactions transactions, CompletionTable table, EffectRunner effects,
                    SavepointBatch fallback) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.table = Objects.requireNonNull(table, "table");
        this.effects = Objects.requireNonNull(effects, "effects");
        this.fallback = Objects.requireNonNull(fallback, "fallback");
        this.insertAllSql = "INSERT INTO " + table.name() + " AS o (" + CompletionTable.ROW_COLUMNS + ", result)"
                + " SELECT " + CompletionTable.ROW_COLUMNS + ", result"
                + " FROM unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::timestamptz[],"
                + " ?::text[]) WITH ORDINALITY AS r(" + CompletionTable.ROW_COLUMNS + ", result, position)"
                + " ORDER BY position" + CompletionTable.TAKE_OVER_REPLAYED + "; COMMIT";
    }

    /** Whether the optimistic path may take {@code steps}: first deliveries only, each job (queue and id) once. */
    static boolean fits(List<Step> steps) {
        return steps.stream().noneMatch(step -> step.execution().isRedelivery())
                && steps.stream().map(step -> List.of(step.execution().job().queue(), jobId(step))).distinct().count()
                == steps.size();
    }

    /** One outcome per step, in the order of {@code steps}, which {@link #fits} must take. */
    List<LedgerOutcome> execute(List<Step> steps) {
        List<Integer> byJobId = SavepointBatch.byJobId(steps);
        JobId first = jobId(steps.get(byJobId.get(0)));
        Instant earliest = steps.stream().map(step -> step.execution().deadline()).min(Comparator.naturalOrder())
                .orElseThrow();
        LedgerOutcome[] outcomes = transactions.inTransaction(first, handle -> {
            transactions.setTimeoutsIfNeeded(handle, first, earliest);
            return runAllAndCommit(handle, steps, byJobId);
        });
        List<Integer> again = IntStream.range(0, steps.size()).filter(i -> outcomes[i] == null).boxed().toList();
        if (!again.isEmpty()) {
            List<LedgerOutcome> retried = fallBack(again.stream().map(steps::get).toList());
            for (int j = 0; j < again.size(); j++) {
                outcomes[again.get(j)] = retried.get(j);
            }
        }
        return List.of(outcomes);
    }

    /**
     * Runs every effect, then commits every completion. @return an outcome per step, by position in {@code steps};
     * none (null) for the steps to run again through the savepoint batch, once this transaction is rolled back
     */
    private LedgerOutcome[] runAllAndCommit(Handle handle, List<Step> steps, List<Integer> byJobId) {
        LedgerOutcome[] outcomes = new LedgerOutcome[steps.size()];
        List<Completion> completions = new ArrayList<>(steps.size());
        for (int k = 0; k < byJobId.size(); k++) {
            Step step = steps.get(byJobId.get(k));
            JobId jobId = jobId(step);
            boolean begun = LedgerTransactions.transactionState(handle, jobId) != TransactionState.IDLE;
            TransactionStep reached = effects.run(handle, step.execution(), step.effect());
            TransactionState state = LedgerTransactions.transactionState(handle, jobId);
            if (state == TransactionState.IDLE && (begun || EffectRunner.endedTheTransaction(reached))) {
                // in doubt: the effects that ran in the transaction it ended, every one before it when that had
                // begun, else its own alone; the others run again
                LedgerOutcome inDoubt = endedBy(jobId);
                byJobId.subList(begun ? 0 : k, k + 1).forEach(i -> outcomes[i] = inDoubt);
                return outcomes;
            }
            if (!(reached instanceof TransactionStep.Ran ran) || state == TransactionState.FAILED) {
                // which job fails is the savepoint batch's to find out, every job isolated from the others
                LedgerTransactions.rollback(handle, jobId);
                return outcomes;
            }
            completions.add(ran.completion());
        }
        return commit(handle, completions, outcomes, byJobId);
    }

    /** Commits the completions, in job-id order as {@code byJobId} puts the steps. */
    private LedgerOutcome[] commit(Handle handle, List<Completion> completions, LedgerOutcome[] outcomes,
                                   List<Integer> byJobId) {
        JobId first = completions.get(0).jobId();
        try {
            insertAllAndCommit(handle.getConnection(), completions);
        } catch (SQLException e) {
            if (table.isKeyConflict(e) || SqlFailures.isDeadlock(e)) {
                // a job completed before (or meanwhile), or the insert waited in a deadlock: nothing committed
                LedgerTransactions.rollback(handle, first);
                return outcomes;
            }
            if (SqlFailures.isIntegrityViolation(e)) {
                // a deferred constraint on the effects' writes failed at the commit: the server rolled it all back,
                // and would again with every job isolated
                Arrays.fill(outcomes, new LedgerOutcome.EffectFailed(e));
                return outcomes;
            }
            throw unavailable("the commit of the batch of job " + first + " was not confirmed, it may or may not"
                    + " have happened: the redeliveries will find out", e);
        }
        transactions.endCommitted(handle, first);
        for (int k = 0; k < byJobId.size(); k++) {
            outcomes[byJobId.get(k)] = new LedgerOutcome.Committed(completions.get(k));
        }
        return outcomes;
    }

    /**
     * Why the jobs whose effects ran in a transaction that the effect of {@code jobId} ended fail for good: their
     * writes may have committed without their completions, and a retry would write them again.
     */
    private static LedgerOutcome endedBy(JobId jobId) {
        return new LedgerOutcome.EffectFailed(new NonRetryableException("the effect of job " + jobId + " ended the"
                + " batch's transaction itself (COMMIT or ROLLBACK sent as SQL): the writes of the jobs' effects up to"
                + " it may have committed without their completions, so none of them is retried"));
    }

    private void insertAllAndCommit(Connection connection, List<Completion> completions) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(insertAllSql)) {
            statement.setArray(1, texts(connection, completions, completion -> completion.jobId().value()));
            statement.setArray(2, texts(connection, completions, completion -> completion.queue().value()));
            statement.setArray(3, texts(connection, completions, completion -> completion.type().orElse(null)));
            statement.setArray(4, connection.createArrayOf("integer",
                    completions.stream().map(Completion::attempt).toArray()));
            statement.setArray(5, texts(connection, completions, completion -> completion.consumer().value()));
            statement.setArray(6, texts(connection, completions, Completion::messageId));
            statement.setArray(7, texts(connection, completions, completion -> completion.completedAt().toString()));
            statement.setArray(8, texts(connection, completions, completion -> completion.result().orElse(null)));
            CompletionTable.lastUpdateCount(statement);
        }
    }

    private static Array texts(Connection connection, List<Completion> completions,
                               Function<Completion, String> column) throws SQLException {
        return connection.createArrayOf("text", completions.stream().map(column).toArray());
    }

    /**
     * The steps run again, each job isolated, in a transaction of their own: a failure of that one is theirs alone,
     * not that of the steps settled before.
     */
    private List<LedgerOutcome> fallBack(List<Step> steps) {
        try {
            return fallback.execute(steps);
        } catch (LedgerUnavailableException e) {
            return Collections.nCopies(steps.size(), new LedgerOutcome.Unknown(e));
        }
    }

    private static JobId jobId(Step step) {
        return step.execution().job().id();
    }
}
