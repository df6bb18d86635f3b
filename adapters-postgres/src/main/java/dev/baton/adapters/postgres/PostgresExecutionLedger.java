package dev.baton.adapters.postgres;

import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/**
 * The execution ledger in PostgreSQL. One job, one READ COMMITTED transaction, the effect on the same connection as
 * the completion row, whose primary key is the job id and its queue: a redelivery claims the job before its effect
 * runs ({@link ClaimThenRun}), a first delivery runs its effect and inserts the completion with the commit
 * ({@link RunThenComplete}); many jobs share one transaction: first deliveries, each job once, with no claim and
 * one insert of all the completions ({@link OptimisticBatch}), falling back to a savepoint and a claim each
 * ({@link SavepointBatch}), which any other batch takes at once.
 */
final class PostgresExecutionLedger implements ExecutionLedger {
    private final ClaimThenRun redeliveries;
    private final RunThenComplete firstDeliveries;
    private final SavepointBatch batches;
    private final OptimisticBatch firstDeliveryBatches;
    private final CompletionLookups lookups;

    PostgresExecutionLedger(Jdbi jdbi, String schema, Clock clock, int forgetBatchSize,
                            Optional<Duration> sessionTimeout, boolean sharedConnections) {
        LedgerTransactions transactions = new LedgerTransactions(jdbi, clock, sessionTimeout,
                sharedConnections ? Optional.of(schema) : Optional.empty());
        CompletionTable table = new CompletionTable(schema);
        EffectRunner effects = new EffectRunner(transactions);
        CompletionCommit commits = new CompletionCommit(transactions, table);
        this.redeliveries = new ClaimThenRun(transactions, table, effects, commits);
        this.firstDeliveries = new RunThenComplete(transactions, table, effects, commits);
        this.batches = new SavepointBatch(transactions, table, redeliveries);
        this.firstDeliveryBatches = new OptimisticBatch(transactions, table, effects, batches);
        this.lookups = new CompletionLookups(jdbi, table, forgetBatchSize);
    }

    @Override
    public LedgerOutcome execute(Execution execution, Effect effect) {
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(effect, "effect");
        return reported(() -> execution.isRedelivery() ? redeliveries.execute(execution, effect)
                : firstDeliveries.execute(execution, effect), unknown -> unknown);
    }

    @Override
    public List<LedgerOutcome> executeAll(List<Step> steps) {
        Objects.requireNonNull(steps, "steps");
        if (steps.size() <= 1) {
            return ExecutionLedger.super.executeAll(steps); // no savepoint round trips for a batch of one
        }
        return reported(() -> OptimisticBatch.fits(steps) ? firstDeliveryBatches.execute(steps)
                : batches.execute(steps), unknown -> Collections.nCopies(steps.size(), unknown));
    }

    /**
     * The one place where the ledger's own failure, thrown from anywhere on a job's path (no connection, a lost one,
     * a commit not confirmed), becomes the outcome the port reports; a batch's is every one of its jobs' outcome.
     */
    private static <T> T reported(Supplier<T> path, Function<LedgerOutcome.Unknown, T> asUnknown) {
        try {
            return path.get();
        } catch (LedgerUnavailableException e) {
            return asUnknown.apply(new LedgerOutcome.Unknown(e));
        }
    }

    @Override
    public Optional<Completion> find(QueueName queue, JobId id) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(id, "job id");
        return lookups.find(queue, id);
    }

    @Override
    public long countCompleted(QueueName queue) {
        Objects.requireNonNull(queue, "queue");
        return lookups.countCompleted(queue);
    }

    @Override
    public long forgetCompletedBefore(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        return lookups.forgetCompletedBefore(cutoff);
    }
}
