package dev.baton.application.port.out;

import java.util.Objects;

/** What became of one job of {@link ExecutionLedger#executeAll}: recorded (committed or a duplicate), or failed. */
public sealed interface StepOutcome {

    /** The job committed with the batch, or had completed already. */
    record Recorded(LedgerOutcome outcome) implements StepOutcome {
        public Recorded {
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /** The job's effect failed: its writes were rolled back, the other jobs of the batch were not affected. */
    record Failed(EffectFailedException failure) implements StepOutcome {
        public Failed {
            Objects.requireNonNull(failure, "failure");
        }
    }
}
