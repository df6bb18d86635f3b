package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Instant;

/**
 * How a job ended, as the execution ledger records it: the durable answer that the transport, which may lose or roll
 * back writes, cannot give. A job is in one of these states at a time.
 */
public sealed interface JobOutcome {

    /** The queue the job belongs to. */
    QueueName queue();

    /** Its effect committed. */
    record Completed(Completion completion) implements JobOutcome {
        public Completed {
            notNull(completion, "completion");
        }

        @Override
        public QueueName queue() {
            return completion.queue();
        }
    }

    /** It went to the dead letters; a delivery of it is acknowledged without running. */
    record Dead(DeadLetterRecord record) implements JobOutcome {
        public Dead {
            notNull(record, "record");
        }

        @Override
        public QueueName queue() {
            return record.queue();
        }
    }

    /** An operator replayed its dead letter at {@code replayedAt}: it runs again, and completes or dies anew. */
    record Replayed(DeadLetterRecord record, Instant replayedAt) implements JobOutcome {
        public Replayed {
            notNull(record, "record");
            notNull(replayedAt, "replayed-at");
        }

        @Override
        public QueueName queue() {
            return record.queue();
        }
    }

    /** An operator purged its dead letter at {@code purgedAt}: it never runs again. */
    record Purged(DeadLetterRecord record, Instant purgedAt) implements JobOutcome {
        public Purged {
            notNull(record, "record");
            notNull(purgedAt, "purged-at");
        }

        @Override
        public QueueName queue() {
            return record.queue();
        }
    }

    /**
     * An operator cancelled it at {@code cancelledAt}, before it completed: it never runs (again), and a running
     * attempt's effect rolls back. Keyed like every outcome, by the job id ({@code key}).
     */
    record Cancelled(String key, QueueName queue, Instant cancelledAt) implements JobOutcome {
        public Cancelled {
            notNull(key, "key");
            notNull(queue, "queue");
            notNull(cancelledAt, "cancelled-at");
        }
    }
}
