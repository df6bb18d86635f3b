package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.util.List;
import java.util.Map;

/**
 * The queues a transport holds, by name, and the ones it cannot read: a stray key where a queue's stream belongs
 * (written by hand or by another program) makes a queue damaged, with the problem to show an operator, instead of
 * failing the whole listing.
 *
 * @param names   the queues whose keys are what they should be, in name order
 * @param damaged each damaged queue's problem, by name; a damaged queue is not among {@code names}
 */
public record QueueListing(List<QueueName> names, Map<QueueName, String> damaged) {
    public QueueListing {
        names = List.copyOf(notNull(names, "queue names"));
        damaged = Map.copyOf(notNull(damaged, "damaged queues"));
    }

    /** Queues that are all readable. */
    public static QueueListing of(List<QueueName> names) {
        return new QueueListing(names, Map.of());
    }
}
