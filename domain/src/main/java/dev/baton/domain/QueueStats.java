package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * The numbers an operator needs for one queue.
 *
 * @param length             entries in the stream (acknowledged history included until trimmed)
 * @param lag                entries not yet delivered to the group (empty when the server cannot tell)
 * @param pending            entries delivered and not yet acknowledged
 * @param oldestPendingIdle  idle time of the longest-waiting pending entry (zero when none)
 * @param consumers          the group's consumers
 * @param delayed            jobs waiting for their due time (retries and scheduled jobs)
 * @param dead               dead letters
 * @param suspects           pending entries that ran isolated as suspects and have not finished: running alone in
 *                           their worker now, or died there and wait to be reclaimed
 * @param isolatedDeliveries the isolated deliveries of those suspects, summed
 */
public record QueueStats(QueueName queue, long length, OptionalLong lag, long pending, Duration oldestPendingIdle,
                         List<ConsumerStats> consumers, long delayed, long dead, long suspects,
                         long isolatedDeliveries) {
    public QueueStats {
        notNull(queue, "queue");
        notNull(lag, "lag");
        notNull(oldestPendingIdle, "oldest pending idle");
        consumers = List.copyOf(notNull(consumers, "consumers"));
    }
}
