package dev.baton.application.port.out;

import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.StoredDeadLetter;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator reads and changes in a queue: its numbers, where a job is, and the dead letters. These calls may
 * scan; they are for people and tools, not for the worker's hot path. Implementations translate their client's
 * exceptions into {@link TransportException}.
 */
public interface QueueAdministration {

    /** The queues the transport holds anything of, by name. */
    List<QueueName> queues();

    QueueStats stats(QueueName queue);

    /**
     * The running totals of each of {@code queues} (summed over its partitions), read together in one round trip:
     * a dashboard polls them every second. A queue nothing finished in has {@link QueueTotals#none}.
     */
    Map<QueueName, QueueTotals> totals(Collection<QueueName> queues);

    /** Where the job with {@code id} is held now, if the transport still holds it. */
    Optional<JobSighting> find(QueueName queue, JobId id);

    /** Each partition's stream length and pending entries, by index; empty for a queue of one partition. */
    List<PartitionStats> partitionStats(QueueName queue);

    /** The first {@code limit} jobs of the delayed set (retries and scheduled jobs), soonest due first. */
    List<JobSighting.Delayed> delayed(QueueName queue, int limit);

    /** Dead letters in the order they died, starting after {@code after} (exclusive) when given. */
    List<StoredDeadLetter> deadLetters(QueueName queue, Optional<DeadLetterId> after, int limit);

    /**
     * Atomically moves the selected dead letters back into the stream with their attempts reset
     * ({@link Job#redriven()}). Malformed entries are moved back verbatim.
     *
     * @return how many moved
     */
    int redrive(QueueName queue, DeadLetterSelection selection);

    /** Deletes the selected dead letters for good. @return how many were deleted */
    int purgeDeadLetters(QueueName queue, DeadLetterSelection selection);

    /**
     * Pauses the queue until {@link #resume}: workers lease nothing from it (they see it within a second, see
     * {@link JobLeases#paused}); enqueues, promotion and acknowledgements go on. Durable with the queue. Idempotent.
     */
    void pause(QueueName queue);

    /** Lets workers lease from the queue again. Idempotent: a queue that is not paused stays as it is. */
    void resume(QueueName queue);

    /**
     * Records, in one atomic step, that the job with {@code id} is cancelled at {@code at}: no worker runs it from
     * now on (its deliveries are acknowledged without running, whichever lease or promotion brings them), and the
     * worker running it now hears of it within a second ({@link JobLeases#cancelled}). Whether or not the transport
     * holds the job: one enqueued later with that id is cancelled too. The record is forgotten with the queue's
     * retention ({@link QueueMaintenance#trim}) and with the queue.
     *
     * @return true when this call recorded it, false when the job was cancelled already
     */
    boolean cancel(QueueName queue, JobId id, Instant at);
}
