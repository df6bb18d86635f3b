package dev.baton.application.port.out;

import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;

/**
 * Hears what producers and workers do, for metrics. Every method defaults to doing nothing; implementations must be
 * quick and thread-safe (workers call them from many threads) and must not throw.
 */
public interface JobObserver {

    /** Observes nothing. */
    JobObserver NONE = new JobObserver() {
    };

    /** A job was published (due now or later). */
    default void jobEnqueued(Job job) {
    }

    /**
     * An attempt starts, {@code waited} after the job was first enqueued. Also heard for redeliveries that then turn
     * out to be duplicates: the ledger tells only once the attempt has begun.
     */
    default void jobStarted(Job job, Duration waited) {
    }

    /** An attempt's effect committed and the job was acknowledged; {@code processing} is the attempt's duration. */
    default void jobCompleted(Job job, Duration processing) {
    }

    /** A delivered job had already completed: acknowledged without committing again. */
    default void duplicateSkipped(Job job) {
    }

    /** An attempt failed (it will be retried or dead-lettered next). */
    default void jobFailed(Job job, JobError error) {
    }

    /** A failed job will run again at {@code at}. */
    default void jobRetried(Job job, Instant at) {
    }

    /** A job (or a malformed entry) went to the dead letters. */
    default void jobDeadLettered(QueueName queue, DeadLetterReason reason) {
    }

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
}
