package dev.baton.application.port.out;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a worker's background loops keep in order: due retries promoted, abandoned entries taken over (a starting
 * consumer's own among them), history trimmed and idle consumers removed; and a starting worker's consumer name,
 * claimed for as long as it runs, with what earlier runs under that name left behind. Every operation is safe when
 * many workers run it at once. Implementations translate their client's exceptions into {@link TransportException}.
 */
public interface QueueMaintenance {

    /**
     * Claims a consumer name for a worker that starts now: {@code wanted} when no live worker holds it, else the
     * first of {@code wanted-2}, {@code wanted-3}, … that none holds. Two live workers never share a name: the second
     * would take the first one's pending entries for its own. The claim lasts until {@link #releaseConsumer}, or
     * until the process that holds it ends (a crashed worker's name is free again for its restart).
     *
     * @return the name claimed
     */
    ConsumerName claimConsumer(ConsumerName wanted);

    /** Gives back a name {@link #claimConsumer} returned: the worker under it stopped. Nothing when none is held. */
    void releaseConsumer(ConsumerName claimed);

    /**
     * Removes from the queue's group the consumers that earlier runs under the stable name {@code name} left behind:
     * {@code name} itself and {@code name-<digits>} (suffixed claims, and the {@code <host>-<pid>} names of earlier
     * releases), unless a live worker holds the name or the consumer owns pending entries. A consumer that owns
     * entries is never removed, because that would drop them: they are reclaimed as any silent consumer's, and the
     * consumer goes at a later start.
     *
     * @return the consumers removed
     */
    List<ConsumerName> removeStaleConsumers(QueueName queue, ConsumerName name);

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
