package dev.baton.application.port.out;

import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Instant;

/**
 * An operator's actions on one delayed job (a retry, a scheduled or delayed job): run it now, or remove it. Apart from
 * {@link QueueAdministration}, because only the delayed jobs' use cases need them.
 */
public interface DelayedJobActions {
    /**
     * Makes the delayed job with {@code id} (a retry, a scheduled or delayed job) due at {@code now}, in one atomic
     * step: promotion moves it into the stream on its next pass ({@link QueueMaintenance#promoteDue}). A job due
     * earlier keeps its time. Found as {@link QueueAdministration#find} finds it, so a job beyond what a lookup scans
     * is not found.
     *
     * @return true when the queue held it delayed, false when not (waiting, running, dead, promoted meanwhile or
     *         unknown)
     */
    boolean makeDue(QueueName queue, JobId id, Instant now);

    /**
     * Removes the delayed job with {@code id} without running it, in one atomic step, and releases the uniqueness key
     * it holds (so that a job with that key may be enqueued again). Nothing else remembers it.
     *
     * @return true when this call removed it, false when the queue held it not delayed
     */
    boolean removeDelayed(QueueName queue, JobId id);
}
