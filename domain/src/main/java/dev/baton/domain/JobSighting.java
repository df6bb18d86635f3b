package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Duration;
import java.time.Instant;

/** Where the transport holds a job now (for {@code baton job ID}). */
public sealed interface JobSighting {

    /** In the stream, not yet delivered to any consumer. */
    record Waiting(String messageId, Job job) implements JobSighting {
        public Waiting {
            notNull(messageId, "message id");
            notNull(job, "job");
        }
    }

    /** Delivered to {@code consumer}, not yet acknowledged. */
    record Pending(String messageId, Job job, String consumer, Duration idle, long deliveries)
            implements JobSighting {
        public Pending {
            notNull(messageId, "message id");
            notNull(job, "job");
            notNull(consumer, "consumer");
            notNull(idle, "idle");
        }
    }

    /** In the delayed set, due at {@code dueAt}. */
    record Delayed(Job job, Instant dueAt) implements JobSighting {
        public Delayed {
            notNull(job, "job");
            notNull(dueAt, "due-at");
        }
    }

    /** In the dead letters. */
    record Dead(StoredDeadLetter deadLetter) implements JobSighting {
        public Dead {
            notNull(deadLetter, "dead letter");
        }
    }
}
