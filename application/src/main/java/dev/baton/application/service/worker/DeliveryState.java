package dev.baton.application.service.worker;

/**
 * Where one held delivery stands, as far as its effect and its outcome go. Two things can cut a delivery short: its
 * deadline (its effect may no longer commit, the attempt fails as a timeout) and the loss of its lease (another
 * consumer owns it, so this worker records nothing, while the ledger still guards the effect). A stop abandons it
 * (neither). Once its outcome is being recorded, nothing cuts it short any more. Each transition returns the state
 * after the event; an event that does not apply leaves the state as it is.
 */
enum DeliveryState {
    /** Leased and not yet finishing: its handler may run and commit, its outcome may be recorded. */
    HELD,
    /** Past its deadline: its handler may not start and its effect not commit; it finishes as a timeout. */
    TIMED_OUT,
    /** Another consumer took it over: its effect may still commit (the ledger decides), its outcome is not ours. */
    LEASE_LOST,
    /** Lost and past its deadline: neither its effect nor its outcome. */
    LOST_PAST_DEADLINE,
    /** Given up at stop: left pending for another consumer; neither its effect nor its outcome. */
    ABANDONED,
    /**
     * Its outcome is being recorded (retried, dead-lettered or acknowledged): it can no longer be lost or abandoned.
     */
    FINISHING;

    /** True when the handler may start, and its effect commit. */
    boolean mayRunEffect() {
        return this == HELD || this == LEASE_LOST;
    }

    /** True when this worker may still record the outcome. */
    boolean mayFinish() {
        return this == HELD || this == TIMED_OUT;
    }

    boolean isPastDeadline() {
        return this == TIMED_OUT || this == LOST_PAST_DEADLINE;
    }

    DeliveryState atDeadline() {
        return switch (this) {
            case HELD -> TIMED_OUT;
            case LEASE_LOST -> LOST_PAST_DEADLINE;
            default -> this;
        };
    }

    DeliveryState leaseLost() {
        return switch (this) {
            case HELD -> LEASE_LOST;
            case TIMED_OUT -> LOST_PAST_DEADLINE;
            default -> this;
        };
    }

    DeliveryState abandoned() {
        return this == FINISHING ? FINISHING : ABANDONED;
    }

    DeliveryState finishing() {
        return mayFinish() ? FINISHING : this;
    }
}
