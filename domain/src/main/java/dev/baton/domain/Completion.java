package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Instant;
import java.util.Optional;

/**
 * The execution ledger's record that a job's effect committed: written in the same transaction as the effect, so
 * its existence proves that the effect happened exactly once.
 */
public record Completion(JobId jobId, QueueName queue, Optional<String> type, int attempt, ConsumerName consumer,
                         String messageId, Optional<String> result, Instant completedAt) {
    public Completion {
        notNull(jobId, "job id");
        notNull(queue, "queue");
        notNull(type, "type");
        notNull(consumer, "consumer");
        notNull(messageId, "message id");
        notNull(result, "result");
        notNull(completedAt, "completed-at");
        require(attempt >= 1, "completed attempt numbers start at 1");
    }

    /**
     * Whether {@code job} is the job this completion records: the same queue, id and type. A job with the same id but
     * another type is another job, whose id collides with this one's.
     */
    public boolean isOf(Job job) {
        return jobId.equals(job.id()) && queue.equals(job.queue()) && type.equals(job.type());
    }
}
