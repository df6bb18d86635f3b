package dev.baton.application.port.out;

import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.Uniqueness;
import java.util.List;

/**
 * Where producers put jobs: a queue's stream for jobs due now, its delayed set for jobs due later. Implementations
 * translate their client's exceptions into {@link TransportException}.
 */
public interface JobPublisher {

    /**
     * Publishes a job: into the stream when it has no {@code notBefore}, else into the delayed set, due at
     * {@code notBefore}. The queue is declared first if needed.
     */
    void publish(Job job);

    /**
     * Publishes many jobs in as few round trips as the transport can (pipelined), in order.
     *
     * @throws dev.baton.domain.InvalidValueException when the transport cannot carry one of the jobs (Redis: a header
     *                                                named like a field of its wire format), checked before any of
     *                                                them is published
     */
    void publishAll(List<Job> jobs);

    /**
     * Publishes a job that carries a uniqueness key ({@link Uniqueness#on}) unless a job holding that key is waiting,
     * delayed or running on the queue (or completed within its period): checked and published in one atomic step.
     * The key is released when its job is acknowledged (after its period, if it has one) or dead-lettered, in the
     * same atomic step; a retry keeps it.
     *
     * @return the id of the job that holds the key: {@code job}'s own id when it was published
     * @throws dev.baton.domain.InvalidValueException when the job carries no uniqueness key
     */
    JobId publishUnique(Job job);

    /**
     * Appends the dead letter of a job that never reached a stream (an outbox row the relay cannot publish) to its
     * queue's dead letters, where it is listed, redriven and purged like any other: a malformed one
     * ({@link DeadLetter#malformed}) with its raw fields kept verbatim, as for a malformed stream entry. Once per job
     * id, or without one, per {@code origin}: while the dead letter is there, a second call appends nothing.
     *
     * @param origin where the letter came from, unique to it (the relay's {@code outbox:<position>}); kept in the
     *               place of a stream entry's original id
     */
    void deadLetterUnpublished(DeadLetter letter, String origin);
}
