package dev.baton.application.port.out;

import dev.baton.domain.Completion;
import dev.baton.domain.JobOutcome;
import java.util.Objects;

/**
 * What the execution ledger did with one job: the one channel through which a job's end reaches the worker. A recorded
 * outcome ({@link Committed}, {@link AlreadyCompleted}, {@link AlreadyDead}) is acknowledged; a failed effect is
 * retried or dead-lettered; a cancelled job ({@link AlreadyCancelled}) is acknowledged; an unknown outcome is left
 * pending, so that its redelivery asks the ledger again.
 */
public sealed interface LedgerOutcome {

    /** The effect ran and committed together with {@code completion}. */
    record Committed(Completion completion) implements LedgerOutcome {
        public Committed {
            Objects.requireNonNull(completion, "completion");
        }
    }

    /** The job had already completed: the effect did not run again (a redelivery), or its writes rolled back. */
    record AlreadyCompleted(Completion completion) implements LedgerOutcome {
        public AlreadyCompleted {
            Objects.requireNonNull(completion, "completion");
        }
    }

    /**
     * The ledger says the job went to the dead letters ({@link JobOutcome.Dead}) or was purged from them
     * ({@link JobOutcome.Purged}): the effect did not run again, or its writes rolled back. A dead job's dead letter
     * is written again if the transport lost it.
     */
    record AlreadyDead(JobOutcome outcome) implements LedgerOutcome {
        public AlreadyDead {
            Objects.requireNonNull(outcome, "outcome");
            if (!(outcome instanceof JobOutcome.Dead || outcome instanceof JobOutcome.Purged)) {
                throw new IllegalArgumentException("not a dead job's outcome: " + outcome);
            }
        }
    }

    /**
     * An operator cancelled the job ({@link JobOutcome.Cancelled}) before it completed: the effect did not run, or
     * its writes rolled back. Acknowledged without a retry.
     */
    record AlreadyCancelled(JobOutcome.Cancelled outcome) implements LedgerOutcome {
        public AlreadyCancelled {
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /**
     * The effect failed and nothing of it was committed. {@code cause} is what the handler threw, or what cut the
     * attempt short (its deadline's interruption included): the attempt counts as failed.
     */
    record EffectFailed(Throwable cause) implements LedgerOutcome {
        public EffectFailed {
            Objects.requireNonNull(cause, "cause");
        }
    }

    /**
     * The ledger failed, or the commit's outcome is unknown (the connection dropped after {@code COMMIT} was sent):
     * the job may or may not have committed, so it must not be acknowledged.
     */
    record Unknown(LedgerUnavailableException failure) implements LedgerOutcome {
        public Unknown {
            Objects.requireNonNull(failure, "failure");
        }
    }
}
