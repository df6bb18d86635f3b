package dev.baton.application.service.worker;

import dev.baton.application.port.in.WorkerCounters;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker's {@link WorkerCounters}, counted from what it tells its observer, then passed on to the user's
 * observer: the rooms of a worker report each event once, and the counters cannot drift from the metrics.
 */
final class CountingObserver implements JobObserver {
    private final JobObserver next;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final AtomicLong reclaimed = new AtomicLong();
    private final AtomicLong leasesLost = new AtomicLong();

    CountingObserver(JobObserver next) {
        this.next = next;
    }

    WorkerCounters counters(int running) {
        return new WorkerCounters(completed.get(), duplicates.get(), retried.get(), deadLettered.get(),
                reclaimed.get(), leasesLost.get(), running);
    }

    @Override
    public void jobEnqueued(Job job) {
        next.jobEnqueued(job);
    }

    @Override
    public void jobStarted(Job job, Duration waited) {
        next.jobStarted(job, waited);
    }

    @Override
    public void jobCompleted(Job job, Duration processing) {
        completed.incrementAndGet();
        next.jobCompleted(job, processing);
    }

    @Override
    public void duplicateSkipped(Job job) {
        duplicates.incrementAndGet();
        next.duplicateSkipped(job);
    }

    @Override
    public void jobFailed(Job job, JobError error) {
        next.jobFailed(job, error);
    }

    @Override
    public void jobRetried(Job job, Instant at) {
        retried.incrementAndGet();
        next.jobRetried(job, at);
    }

    @Override
    public void jobDeadLettered(QueueName queue, DeadLetterReason reason) {
        deadLettered.incrementAndGet();
        next.jobDeadLettered(queue, reason);
    }

    @Override
    public void reclaimed(QueueName queue, int count) {
        reclaimed.addAndGet(count);
        next.reclaimed(queue, count);
    }

    @Override
    public void leaseLost(QueueName queue, DeliveryId id) {
        leasesLost.incrementAndGet();
        next.leaseLost(queue, id);
    }

    @Override
    public void vanished(QueueName queue, int count) {
        next.vanished(queue, count);
    }

    @Override
    public void trimmed(QueueName queue, TrimOutcome outcome) {
        next.trimmed(queue, outcome);
    }
}
