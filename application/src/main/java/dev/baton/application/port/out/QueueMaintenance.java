package dev.baton.application.port.out;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a worker's background loops keep in order: due retries promoted, abandoned entries taken over (a starting
 * consumer's own among them), history trimmed and idle consumers removed. Every operation is safe when many workers run it at once. Implementations
 * translate their client's exceptions into {@link TransportException}.
 */
public interface QueueMaintenance {

    /**
     * Moves up to {@code max} delayed jobs due at {@code now} into the stream. Safe when many workers promote at
     * once: each due job reaches the stream exactly once.
     *
     * @return how many jobs moved
     */
    int promoteDue(QueueName queue, Instant now, int max);

    /**
     * Leases again up to {@code max} entries already pending for {@code consumer} (what it held when it last
     * stopped), oldest first; each counts as one more delivery. Used once when a consumer starts: the recovery of its
     * own work, as {@link #reclaimAbandoned} is of a silent consumer's.
     */
    List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max);

    /**
     * Takes over up to {@code max} entries of any consumer idle for at least {@code minIdle}, oldest first. Their
     * delivery count grows by one. Entries whose data vanished from the stream are removed from the pending list
     * and reported, never silently dropped.
     */
    Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle, int max);

    /**
     * Removes acknowledged history older than {@code retention} at {@code now}, never at or above the oldest entry
     * that the consumer group still needs (its oldest pending entry, and everything not yet delivered).
     */
    TrimOutcome trim(QueueName queue, Retention retention, Instant now);

    /**
     * Removes consumers idle for longer than {@code idle} that own no pending entries; a consumer that still owns
     * entries is kept, because deleting it would drop them.
     *
     * @return the consumers removed
     */
    List<ConsumerName> removeIdleConsumers(QueueName queue, Duration idle);
}
