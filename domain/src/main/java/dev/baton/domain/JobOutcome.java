package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Instant;
import java.util.Optional;

/**
 * How a job ended, as the execution ledger records it: the durable answer that the transport, which may lose or roll
 * back writes, cannot give. A job is in one of these states at a time.
 */
public sealed interface JobOutcome {

    /** The queue the job belongs to. */
    QueueName queue();

    /** The job's key in the ledger: its id, or a malformed entry's {@link DeadLetterRecord#entryKey}. */
    String key();

    /** When it reached this state: completed, went dead, was replayed or purged. */
    Instant at();

    /** Why and how it died, unless it completed. */
    default Optional<DeadLetterRecord> deadLetterRecord() {
        if (this instanceof Dead dead) {
            return Optional.of(dead.record());
        }
        if (this instanceof Replayed replayed) {
            return Optional.of(replayed.record());
        }
        return this instanceof Purged purged ? Optional.of(purged.record()) : Optional.empty();
    }

    /** Its effect committed. */
    record Completed(Completion completion) implements JobOutcome {
        public Completed {
            notNull(completion, "completion");
        }

        @Override
        public QueueName queue() {
            return completion.queue();
        }

        @Override
        public String key() {
            return completion.jobId().value();
        }

        @Override
        public Instant at() {
            return completion.completedAt();
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

        @Override
        public String key() {
            return record.key();
        }

        @Override
        public Instant at() {
            return record.deadAt();
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

        @Override
        public String key() {
            return record.key();
        }

        @Override
        public Instant at() {
            return replayedAt;
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

        @Override
        public String key() {
            return record.key();
        }

        @Override
        public Instant at() {
            return purgedAt;
        }
    }
}
