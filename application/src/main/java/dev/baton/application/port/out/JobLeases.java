package dev.baton.application.port.out;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a worker leases jobs from and reports their end to, with at-least-once delivery: a queue is a stream read by
 * one consumer group (named by the transport's configuration, {@code <queue>-workers} by default). A leased entry
 * stays pending for its consumer until it is acknowledged, retried, dead-lettered or reclaimed by another consumer.
 *
 * <p>Every move between the stream, the delayed set and the dead letters is atomic: a job is in exactly one place at
 * any moment an observer can see. Implementations translate their client's exceptions into
 * {@link TransportException}.
 */
public interface JobLeases {

    /** Creates the queue's consumer group (and stream) if missing. Idempotent; safe from many workers at once. */
    void declare(QueueName queue);

    /**
     * Leases up to {@code max} new entries (never delivered to the group before) to {@code consumer}, waiting up to
     * {@code block} when none is there, and tells which of their jobs are cancelled, as {@link #cancelled} would right
     * after the read (the same answer, without asking again). Malformed entries are leased as
     * {@link Delivery.Malformed}. A failure to read the cancels fails the lease: what it read stays pending for
     * {@code consumer}, and comes back after the lease. A lease whose thread is interrupted while it waits (a worker
     * stopping) ends its read at once and returns what the read had taken, often nothing, with the interrupt flag
     * set: no entry is left pending for a consumer that stopped reading.
     */
    Lease lease(QueueName queue, ConsumerName consumer, int max, Duration block);

    /**
     * Resets the idle time of entries that {@code consumer} still owns, so no other consumer reclaims a job that is
     * still running. Never takes an entry from another consumer.
     *
     * @return the ids that {@code consumer} no longer owns (its lease was lost: reclaimed by another, or gone)
     */
    Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer, Collection<DeliveryId> ids);

    /**
     * Records that {@code consumer} now runs {@code delivery} isolated (alone in its worker), atomically with the
     * check that it still holds the entry, so that whoever leases the entry next sees one more
     * {@link Delivery.Leased#isolatedDeliveries()}. The record ends with the entry: acknowledged, retried,
     * dead-lettered, or trimmed after it stopped being pending.
     *
     * @return the entry's isolated deliveries, this one included; empty when {@code consumer} no longer holds it
     */
    OptionalLong isolate(Delivery.Leased delivery, ConsumerName consumer);

    /** Acknowledges finished entries: they leave the pending list. Unknown or already acknowledged ids are ignored. */
    void acknowledge(QueueName queue, Collection<DeliveryId> ids);

    /**
     * Acknowledges {@code ids} of {@code queue}, as {@link #acknowledge} does, then leases up to {@code max} new
     * entries without waiting, as {@link #lease} does with no block. A worker whose queue has work sends the
     * acknowledgements that gathered in front of its next lease: a transport that can do both in one round trip
     * overrides this.
     *
     * @return the lease, and the acknowledgement's failure if it failed (the lease is taken either way)
     * @throws TransportException when the lease failed; whether the acknowledgement took effect is then unknown
     */
    default AcknowledgedLease acknowledgeAndLease(QueueName queue, Collection<DeliveryId> ids, ConsumerName consumer,
                                                  int max) {
        Optional<RuntimeException> failure = Optional.empty();
        try {
            acknowledge(queue, ids);
        } catch (RuntimeException e) {
            failure = Optional.of(e);
        }
        return new AcknowledgedLease(lease(queue, consumer, max, Duration.ZERO), failure);
    }

    /**
     * Atomically acknowledges {@code delivery} and puts {@code retried} into the delayed set, due at its
     * {@code notBefore}.
     */
    void retryLater(Delivery delivery, Job retried);

    /** Atomically acknowledges {@code delivery} and appends {@code letter} to the queue's dead letters. */
    void deadLetter(Delivery delivery, DeadLetter letter);

    /**
     * Which of {@code queues} an operator paused ({@link QueueAdministration#pause}). Cheap (one small read per
     * queue, sent together), but not free: a worker asks once a second, not once per lease.
     */
    Set<QueueName> paused(Collection<QueueName> queues);

    /**
     * Which of {@code jobs} an operator cancelled in {@code queue} ({@link QueueAdministration#cancel}): one cheap
     * read for them all. A worker asks before it runs what it reclaimed (a {@link #lease} tells it for new entries),
     * and once a second for the jobs it runs.
     */
    Set<JobId> cancelled(QueueName queue, Collection<JobId> jobs);
}
