package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A job that Baton gave up on, kept with its reason and last error so that an operator can inspect and redrive it.
 *
 * @param queue     the queue it came from
 * @param job       the job; empty only for a {@link DeadLetterReason#MALFORMED} entry, which is not a valid job
 * @param rawFields the stream entry's fields as they arrived (kept verbatim for malformed entries)
 * @param reason    why Baton gave up
 * @param lastError the last attempt's error, or a description of what is malformed / why it is poison
 * @param attempts  attempts made in all, the last one included (deliveries, for poison entries); the job's own
 *                  {@code attempt} stays as it was delivered for its last attempt, one less
 * @param deadAt    when it was dead-lettered
 * @param trace     the stack trace of the last attempt's exception, when it threw one
 */
public record DeadLetter(QueueName queue, Optional<Job> job, Map<String, String> rawFields, DeadLetterReason reason,
                         JobError lastError, int attempts, Instant deadAt, Optional<ErrorTrace> trace) {

    public DeadLetter {
        notNull(queue, "queue");
        notNull(job, "job");
        notNull(reason, "reason");
        notNull(lastError, "last error");
        notNull(deadAt, "dead-at");
        notNull(trace, "trace");
        require(attempts >= 0, "attempts must not be negative");
        require(job.isPresent() || reason == DeadLetterReason.MALFORMED,
                "only a malformed entry may be dead-lettered without a job");
        rawFields = Map.copyOf(notNull(rawFields, "raw fields"));
    }

    /** A valid job that failed for good. */
    public static DeadLetter of(Job job, DeadLetterReason reason, JobError lastError, int attempts, Instant deadAt) {
        return new DeadLetter(job.queue(), Optional.of(job), Map.of(), reason, lastError, attempts, deadAt,
                Optional.empty());
    }

    /** A stream entry that is not a valid job; its fields are kept verbatim. */
    public static DeadLetter malformed(QueueName queue, Map<String, String> rawFields, String problem,
                                       Instant deadAt) {
        return new DeadLetter(queue, Optional.empty(), rawFields, DeadLetterReason.MALFORMED,
                JobError.permanent("malformed", problem), 0, deadAt, Optional.empty());
    }

    /** The same letter with the stack trace of the exception that ended it. */
    public DeadLetter withTrace(ErrorTrace newTrace) {
        return new DeadLetter(queue, job, rawFields, reason, lastError, attempts, deadAt, Optional.of(newTrace));
    }

    /** The job id when there is one: the job's, or the raw {@code job_id} field of a malformed entry. */
    public Optional<String> jobId() {
        return job.map(j -> j.id().value()).or(() -> Optional.ofNullable(rawFields.get("job_id")));
    }
}
