package dev.baton.domain;

/** Why a job went to the dead letters. */
public enum DeadLetterReason {
    /** Every allowed attempt failed. */
    EXHAUSTED,
    /** The handler said that trying again cannot help. */
    NON_RETRYABLE,
    /** The stream entry is not a valid job (missing fields, bad attempt, oversized payload, bad UTF-8, ...). */
    MALFORMED,
    /** Delivered more often than the delivery limit without ever finishing, e.g. because it crashes its worker. */
    POISON,
    /**
     * No worker that leased it had its handler (its type's, or for an untyped job its queue's) within the grace of
     * {@link NoHandlerPolicy}: nothing ran.
     */
    NO_HANDLER
}
