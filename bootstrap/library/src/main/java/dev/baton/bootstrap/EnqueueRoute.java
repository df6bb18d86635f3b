package dev.baton.bootstrap;

/**
 * Where a Java enqueue goes. The default is {@link #OUTBOX} when {@code BATON_ENQUEUE_THROUGH_OUTBOX=on}, else
 * {@link #DIRECT} (docs/RELIABILITY.md#enqueueing-through-the-outbox).
 */
public enum EnqueueRoute {
    /** Straight to Redis: an {@code XADD}, lost if Redis loses its data before a worker ran the job. */
    DIRECT,
    /**
     * Into the outbox in a short PostgreSQL transaction of Baton's own, then to Redis by a relay woken by the commit:
     * known to the ledger until its terminal outcome, so published again when Redis loses it. Unique jobs cannot.
     */
    OUTBOX
}
