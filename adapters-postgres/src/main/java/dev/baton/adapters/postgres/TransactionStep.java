package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.Completion;
import java.util.Objects;

/**
 * How far one job got inside the ledger's open transaction, before anything commits: its effect {@link Ran}, and
 * its completion is to commit with it, or the job is {@link Settled} and nothing of it will commit.
 */
sealed interface TransactionStep {

    /** The effect returned; whether {@code completion} commits is up to the commit that follows. */
    record Ran(Completion completion) implements TransactionStep {
        public Ran {
            Objects.requireNonNull(completion, "completion");
        }
    }

    /**
     * Known without a commit: the job completed before ({@code AlreadyCompleted}), went to the dead letters before
     * ({@code AlreadyDead}), was cancelled ({@code AlreadyCancelled}), or its effect failed.
     */
    record Settled(LedgerOutcome outcome) implements TransactionStep {
        public Settled {
            if (!(outcome instanceof LedgerOutcome.AlreadyCompleted || outcome instanceof LedgerOutcome.AlreadyDead
                    || outcome instanceof LedgerOutcome.AlreadyCancelled
                    || outcome instanceof LedgerOutcome.EffectFailed)) {
                throw new IllegalArgumentException("a settled step ended before or failed, got " + outcome);
            }
        }

        static Settled failed(Throwable cause) {
            return new Settled(new LedgerOutcome.EffectFailed(cause));
        }
    }
}
