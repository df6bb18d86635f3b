package dev.baton.application.port.out;

import dev.baton.domain.QueueName;

/**
 * Hears what the worker's background loops find while they keep the queues in order, for metrics: entries taken over
 * from silent consumers, leases lost to another consumer, pending entries whose data vanished, trims, the
 * outbox relay's publishing. The life of
 * jobs goes to {@link JobObserver}. Every method defaults to doing nothing; implementations must be quick and
 * thread-safe (each loop runs on a thread of its own, and workers share one observer) and must not throw.
 */
public interface MaintenanceObserver {

    /** Observes nothing. */
    MaintenanceObserver NONE = new MaintenanceObserver() {
    };

    /** {@code count} entries were taken over from consumers that went silent. */
    default void reclaimed(QueueName queue, int count) {
    }

    /** Another consumer took over a job this worker was still running. */
    default void leaseLost(QueueName queue, DeliveryId id) {
    }

    /** {@code count} pending entries had lost their data (trimmed or deleted) and left the pending list. */
    default void vanished(QueueName queue, int count) {
    }

    /** A trim ran. */
    default void trimmed(QueueName queue, TrimOutcome outcome) {
    }

    /** The outbox relay published {@code count} committed jobs, republished ones included. */
    default void outboxPublished(int count) {
    }

    /** The transport lost data: {@code count} jobs without a terminal outcome are to be published again. */
    default void outboxRepublished(int count) {
    }
}
