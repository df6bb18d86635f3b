package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

/**
 * How many jobs of a queue every worker has finished since the queue was created: completed (acknowledged), retried
 * (scheduled for another attempt) and dead-lettered. Running totals, only ever growing while the queue exists; the
 * difference of two readings is the throughput between them.
 */
public record QueueTotals(QueueName queue, long completed, long retried, long dead) {
    public QueueTotals {
        notNull(queue, "queue");
        require(completed >= 0 && retried >= 0 && dead >= 0,
                "totals cannot be negative: completed=" + completed + " retried=" + retried + " dead=" + dead);
    }

    /** The totals of a queue nothing has finished in yet. */
    public static QueueTotals none(QueueName queue) {
        return new QueueTotals(queue, 0, 0, 0);
    }

    /** These totals and {@code other}'s added up (the partitions of one queue). */
    public QueueTotals plus(QueueTotals other) {
        return new QueueTotals(queue, completed + other.completed, retried + other.retried, dead + other.dead);
    }
}
