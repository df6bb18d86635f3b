package dev.baton.application.port.out;

import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.StoredDeadLetter;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What an operator reads and changes in a queue: its numbers, where a job is, the dead letters, pausing, cancelling,
 * and making a delayed job due or removing it ({@link QueueOverview} has what a dashboard reads across queues). These
 * calls may scan; they are for people and tools, not for the worker's hot path. Implementations translate their
 * client's exceptions into {@link TransportException}.
 */
public interface QueueAdministration {

    QueueStats stats(QueueName queue);

    /** Where the job with {@code id} is held now, if the transport still holds it. */
    Optional<JobSighting> find(QueueName queue, JobId id);

    /** Dead letters in the order they died, starting after {@code after} (exclusive) when given. */
    List<StoredDeadLetter> deadLetters(QueueName queue, Optional<DeadLetterId> after, int limit);

    /** The dead letter with {@code id}, whole; empty when there is none (or {@code id} cannot be one). */
    Optional<StoredDeadLetter> deadLetter(QueueName queue, DeadLetterId id);

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
