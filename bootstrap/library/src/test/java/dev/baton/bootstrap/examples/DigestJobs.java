package dev.baton.bootstrap.examples;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import java.time.Duration;

/** Unique jobs: one digest per user and day, however often and from however many places it is asked for. */
public final class DigestJobs {
    public record SendDigest(String userId, String day) {
    }

    public static final JobType<SendDigest> SEND_DIGEST = JobType.of("send-digest", SendDigest.class);

    private final Baton baton;
    private final QueueName queue;

    public DigestJobs(Baton baton, QueueName queue) {
        this.baton = baton;
        this.queue = queue;
    }

    /**
     * Asks for the digest. While one for that user and day is waiting, delayed or running, and for a day after it
     * was sent, asking again adds nothing: every caller is told the id of the job that sends it.
     */
    public JobId request(SendDigest digest, String requestId) {
        Uniqueness once = Uniqueness.of("digest:" + digest.userId() + ":" + digest.day()).andFor(Duration.ofDays(1));
        return baton.enqueueUnique(SEND_DIGEST, queue, JobId.of("digest-" + requestId), digest, once).jobId();
    }
}
