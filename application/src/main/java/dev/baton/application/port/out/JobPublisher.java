package dev.baton.application.port.out;

import dev.baton.domain.Job;
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

    /** Publishes many jobs in as few round trips as the transport can (pipelined), in order. */
    void publishAll(List<Job> jobs);
}
