package dev.baton.application.port.out;

import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes a job's effect happen once: the effect's writes and the job's completion record commit in one transaction,
 * and a job that already completed is reported, not committed again. A job is keyed by its queue and its id: a job id
 * is unique within its queue (every partition of the queue included), so the same id on two queues names two jobs.
 */
public interface ExecutionLedger {

    /**
     * Runs {@code effect} and records the job's completion in one transaction and commits both, or reports that the
     * job already completed. When two callers race on one job (one queue, one id), exactly one commits; the other gets
     * {@link LedgerOutcome.AlreadyCompleted} and its writes are rolled back.
     *
     * <p>A {@linkplain Execution#isRedelivery() redelivery} is checked first: the effect of a job that completed does
     * not run again. A first delivery is rarely of a completed job (a producer publishing a job id again, a retry
     * racing its own attempt's commit), so the ledger may run its effect first and find out with the completion
     * record, in one round trip less; the effect's writes then roll back, and the outcome is
     * {@link LedgerOutcome.AlreadyCompleted} even if the effect failed (on a unique key of its own, say).
     *
     * <p>Every end arrives as the returned outcome, never as an exception: {@link LedgerOutcome.EffectFailed} when the
     * effect threw (nothing was committed), {@link LedgerOutcome.Unknown} when the ledger failed or the commit's
     * outcome is unknown.
     */
    LedgerOutcome execute(Execution execution, Effect effect);

    /**
     * Runs many jobs, each with the guarantees of {@link #execute}, committing them together where the ledger can
     * (PostgreSQL: one transaction; first deliveries with every completion inserted at the commit, and when one fails,
     * or with a redelivery among them, a savepoint per job, so that one job's failure rolls back only its own effect).
     * Returns one outcome per step, in the order of {@code steps}. When the batch's commit failed or its outcome is
     * unknown, every step's outcome is {@link LedgerOutcome.Unknown} (some jobs may have committed), so none may be
     * acknowledged. This default runs and commits them one by one.
     */
    default List<LedgerOutcome> executeAll(List<Step> steps) {
        List<LedgerOutcome> outcomes = new ArrayList<>(steps.size());
        for (Step step : steps) {
            outcomes.add(execute(step.execution(), step.effect()));
        }
        return outcomes;
    }

    /**
     * The completion record of the job {@code id} of {@code queue}, if it completed and the record is still retained
     * (not dead-letter records).
     */
    Optional<Completion> find(QueueName queue, JobId id);

    /** How many completions of {@code queue} the ledger holds. */
    long countCompleted(QueueName queue);

    /**
     * Deletes completion records older than {@code cutoff}, and the records of dead letters purged before it (see
     * {@link JobOutcomes}; dead and replayed jobs are kept until they change). @return how many were deleted
     */
    long forgetCompletedBefore(Instant cutoff);

    /**
     * A job's attempt as the ledger records it. {@code deliveryCount} is the stream entry's delivery counter, this
     * delivery included.
     */
    record Execution(Job job, ConsumerName consumer, DeliveryId deliveryId, long deliveryCount, Instant deadline) {
        public Execution {
            Objects.requireNonNull(job, "job");
            Objects.requireNonNull(consumer, "consumer");
            Objects.requireNonNull(deliveryId, "delivery id");
            Objects.requireNonNull(deadline, "deadline");
            if (deliveryCount < 1) {
                throw new IllegalArgumentException("delivery count must be at least 1, got " + deliveryCount);
            }
        }

        /** True when the entry was delivered before: a worker may have completed the job and died before its ack. */
        public boolean isRedelivery() {
            return deliveryCount > 1;
        }
    }

    /** One job of {@link #executeAll}: its attempt and its effect. */
    record Step(Execution execution, Effect effect) {
        public Step {
            Objects.requireNonNull(execution, "execution");
            Objects.requireNonNull(effect, "effect");
        }
    }

    /** The handler's work inside the ledger's transaction; returns the job's optional result text. */
    @FunctionalInterface
    interface Effect {
        Optional<String> run(LedgerTransaction transaction) throws Exception;
    }
}
