package dev.baton.application.port.out;

import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import java.time.Duration;
import java.time.Instant;

/**
 * Hears the life of jobs, for metrics: what producers publish and what the worker's job threads make of each
 * delivery. The worker's background loops report to {@link MaintenanceObserver}. Every method defaults to doing
 * nothing; implementations must be quick and thread-safe (workers call them from many threads) and must not throw.
 */
public interface JobObserver {

    /** Observes nothing. */
    JobObserver NONE = new JobObserver() {
    };

    /**
     * A job reached its queue (due now or later): published by a producer, relayed from the outbox (never when its
     * producer's transaction rolled back), or fired by a schedule. Heard once per job, in the process that put it
     * there; a job an outbox relay publishes again (a relay failed to mark it, or Redis lost data) is heard again.
     */
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

    /**
     * A suspect (a delivery reclaimed from a worker that went silent) starts running isolated: alone in its worker;
     * {@code isolatedDeliveries} counts this one.
     */
    default void suspectIsolated(Job job, long isolatedDeliveries) {
    }

    /** An attempt failed (it will be retried or dead-lettered next). */
    default void jobFailed(Job job, JobError error) {
    }

    /** A failed job will run again at {@code at}. */
    default void jobRetried(Job job, Instant at) {
    }

    /** A job's handler snoozed it: it runs again at {@code at}, without having spent an attempt. */
    default void jobSnoozed(Job job, Instant at) {
    }

    /** An operator cancelled the job: its delivery was acknowledged without running, or its running attempt ended. */
    default void jobCancelled(Job job) {
    }

    /** A job (or a malformed entry) went to the dead letters: heard once per letter, after it was written. */
    default void jobDeadLettered(DeadLetter letter) {
    }
}
