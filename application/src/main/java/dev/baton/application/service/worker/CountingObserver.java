package dev.baton.application.service.worker;

import dev.baton.application.port.in.WorkerCounters;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker's {@link WorkerCounters}, counted from what it tells its observers, then passed on to the user's
 * observers: the rooms of a worker report each event once, and the counters cannot drift from the metrics. It hears
 * both ports because the counters mix them: completions from the job threads, reclaims from the loops.
 */
final class CountingObserver implements JobObserver, MaintenanceObserver {
    private final JobObserver jobObserver;
    private final MaintenanceObserver maintenanceObserver;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final AtomicLong snoozed = new AtomicLong();
    private final AtomicLong cancelled = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final AtomicLong reclaimed = new AtomicLong();
    private final AtomicLong leasesLost = new AtomicLong();
    private final AtomicLong isolated = new AtomicLong();

    CountingObserver(JobObserver jobObserver, MaintenanceObserver maintenanceObserver) {
        this.jobObserver = jobObserver;
        this.maintenanceObserver = maintenanceObserver;
    }

    WorkerCounters counters(int running, int suspects) {
        return new WorkerCounters(completed.get(), duplicates.get(), retried.get(), deadLettered.get(),
                reclaimed.get(), leasesLost.get(), running, isolated.get(), suspects, snoozed.get(),
                cancelled.get());
    }

    @Override
    public void jobEnqueued(Job job) {
        jobObserver.jobEnqueued(job);
    }

    @Override
    public void jobStarted(Job job, Duration waited) {
        jobObserver.jobStarted(job, waited);
    }

    @Override
    public void jobCompleted(Job job, Duration processing) {
        completed.incrementAndGet();
        jobObserver.jobCompleted(job, processing);
    }

    @Override
    public void duplicateSkipped(Job job, Completion earlier) {
        duplicates.incrementAndGet();
        jobObserver.duplicateSkipped(job, earlier);
    }

    @Override
    public void suspectIsolated(Job job, long isolatedDeliveries) {
        isolated.incrementAndGet();
        jobObserver.suspectIsolated(job, isolatedDeliveries);
    }

    @Override
    public void jobFailed(Job job, JobError error) {
        jobObserver.jobFailed(job, error);
    }

    @Override
    public void jobRetried(Job job, Instant at) {
        retried.incrementAndGet();
        jobObserver.jobRetried(job, at);
    }

    @Override
    public void jobSnoozed(Job job, Instant at) {
        snoozed.incrementAndGet();
        jobObserver.jobSnoozed(job, at);
    }

    @Override
    public void jobCancelled(Job job) {
        cancelled.incrementAndGet();
        jobObserver.jobCancelled(job);
    }

    @Override
    public void jobDeadLettered(DeadLetter letter) {
        deadLettered.incrementAndGet();
        jobObserver.jobDeadLettered(letter);
    }

    @Override
    public void reclaimed(QueueName queue, int count) {
        reclaimed.addAndGet(count);
        maintenanceObserver.reclaimed(queue, count);
    }

    @Override
    public void leaseLost(QueueName queue, DeliveryId id) {
        leasesLost.incrementAndGet();
        maintenanceObserver.leaseLost(queue, id);
    }

    @Override
    public void vanished(QueueName queue, int count) {
        maintenanceObserver.vanished(queue, count);
    }

    @Override
    public void trimmed(QueueName queue, TrimOutcome outcome) {
        maintenanceObserver.trimmed(queue, outcome);
    }

    @Override
    public void outboxPublished(int count) {
        maintenanceObserver.outboxPublished(count);
    }

    @Override
    public void outboxRepublished(int count) {
        maintenanceObserver.outboxRepublished(count);
    }
}
