package dev.baton.domain;

import java.util.Locale;

/** The state of a job's terminal outcome in the execution ledger: one of {@link JobOutcome}'s kinds. */
public enum OutcomeState {
    COMPLETED, DEAD, REPLAYED, PURGED, CANCELLED;

    public static OutcomeState of(JobOutcome outcome) {
        if (outcome instanceof JobOutcome.Completed) {
            return COMPLETED;
        }
        if (outcome instanceof JobOutcome.Dead) {
            return DEAD;
        }
        if (outcome instanceof JobOutcome.Replayed) {
            return REPLAYED;
        }
        return outcome instanceof JobOutcome.Purged ? PURGED : CANCELLED;
    }

    /** {@code completed}, {@code dead}, ...: as the ledger and the admin API write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws InvalidValueException for a text that is no state's label */
    public static OutcomeState parse(String label) {
        for (OutcomeState state : values()) {
            if (state.label().equals(label)) {
                return state;
            }
        }
        throw new InvalidValueException("unknown state '" + label
                + "': expected completed, dead, replayed, purged or cancelled");
    }
}
