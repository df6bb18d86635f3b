package dev.baton.application.port.out;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Moves jobs between producers and workers with at-least-once delivery: a queue is a stream read by one consumer
 * group, a delayed set for jobs not yet due, and a dead-letter stream. Each queue's consumer group is named by the
 * transport's configuration ({@code <queue>-workers} by default).
 *
 * <p>Every move between the stream, the delayed set and the dead letters is atomic: a job is in exactly one place
 * at any moment an observer can see. Implementations translate their client's exceptions into
 * {@link TransportException}.
 */
public interface StreamTransport {

    /** Creates the queue's consumer group (and stream) if missing. Idempotent; safe from many workers at once. */
    void declare(QueueName queue);

    /**
     * Publishes a job: into the stream when it has no {@code notBefore}, else into the delayed set, due at
     * {@code notBefore}. The queue is declared first if needed.
     */
    void publish(Job job);

    /** Publishes many jobs in as few round trips as the transport can (pipelined), in order. */
    void publishAll(List<Job> jobs);

    /**
     * Leases up to {@code max} new entries (never delivered to the group before) to {@code consumer}, waiting up to
     * {@code block} when none is there. Leased entries stay pending for the consumer until acknowledged, retried,
     * dead-lettered or reclaimed by another consumer. Malformed entries are leased as {@link Delivery.Malformed}.
     */
    List<Delivery> lease(QueueName queue, ConsumerName consumer, int max, Duration block);

    /**
     * Leases again up to {@code max} entries already pending for {@code consumer} (what it held when it last
     * stopped), oldest first; each counts as one more delivery. Used once when a consumer starts.
     */
    List<Delivery> leaseOwnPending(QueueName queue, ConsumerName consumer, int max);

    /** Acknowledges finished entries: they leave the pending list. Unknown or already acknowledged ids are ignored. */
    void acknowledge(QueueName queue, Collection<DeliveryId> ids);

    /**
     * Atomically acknowledges {@code delivery} and puts {@code retried} into the delayed set, due at its
     * {@code notBefore}.
     */
    void retryLater(Delivery delivery, Job retried);

    /** Atomically acknowledges {@code delivery} and appends {@code letter} to the queue's dead letters. */
    void deadLetter(Delivery delivery, DeadLetter letter);

    /**
     * Resets the idle time of entries that {@code consumer} still owns, so no other consumer reclaims a job that is
     * still running. Never takes an entry from another consumer.
     *
     * @return the ids that {@code consumer} no longer owns (its lease was lost: reclaimed by another, or gone)
     */
    Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer, Collection<DeliveryId> ids);

    /**
     * Takes over up to {@code max} entries of any consumer idle for at least {@code minIdle}, oldest first. Their
     * delivery count grows by one. Entries whose data vanished from the stream are removed from the pending list
     * and reported, never silently dropped.
     */
    Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle, int max);

    /**
     * Moves up to {@code max} delayed jobs due at {@code now} into the stream. Safe when many workers promote at
     * once: each due job reaches the stream exactly once.
     *
     * @return how many jobs moved
     */
    int promoteDue(QueueName queue, Instant now, int max);

    QueueStats stats(QueueName queue);

    /**
     * Removes acknowledged history older than {@code retention} at {@code now}, never at or above the oldest entry
     * that the consumer group still needs (its oldest pending entry, and everything not yet delivered).
     */
    TrimOutcome trim(QueueName queue, Retention retention, Instant now);

    /**
     * Removes consumers idle for longer than {@code idle} that own no pending entries; a consumer that still owns
     * entries is kept, because deleting it would drop them.
     *
     * @return the names removed
     */
    List<String> removeIdleConsumers(QueueName queue, Duration idle);

    /** Dead letters in the order they died, starting after the id {@code after} (exclusive) when given. */
    List<StoredDeadLetter> deadLetters(QueueName queue, Optional<String> after, int limit);

    /**
     * Atomically moves the selected dead letters back into the stream with their attempts reset
     * ({@link Job#redriven()}). Malformed entries are moved back verbatim.
     *
     * @return how many moved
     */
    int redrive(QueueName queue, DeadLetterSelection selection);

    /** Deletes the selected dead letters for good. @return how many were deleted */
    int purgeDeadLetters(QueueName queue, DeadLetterSelection selection);

    /** Where the job with {@code id} is held now, if the transport still holds it. May scan: for operators. */
    Optional<JobSighting> find(QueueName queue, JobId id);
}
