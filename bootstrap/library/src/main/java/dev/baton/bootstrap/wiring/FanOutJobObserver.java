package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.Completion;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/** Hands every event of a job to several observers, in order: the metrics first, then those added with the builder. */
final class FanOutJobObserver implements JobObserver {
    private final JobObserver[] observers;

    private FanOutJobObserver(List<JobObserver> observers) {
        this.observers = observers.toArray(JobObserver[]::new);
    }

    /** {@code observers} as one; the only one itself, so that a worker with no added observer pays nothing. */
    static JobObserver of(List<JobObserver> observers) {
        return observers.size() == 1 ? observers.get(0) : new FanOutJobObserver(observers);
    }

    private void each(Consumer<JobObserver> event) {
        for (JobObserver observer : observers) {
            event.accept(observer);
        }
    }

    @Override
    public void jobEnqueued(Job job) {
        each(observer -> observer.jobEnqueued(job));
    }

    @Override
    public void jobStarted(Job job, Duration waited) {
        each(observer -> observer.jobStarted(job, waited));
    }

    @Override
    public void jobCompleted(Job job, Duration processing) {
        each(observer -> observer.jobCompleted(job, processing));
    }

    @Override
    public void duplicateSkipped(Job job, Completion earlier) {
        each(observer -> observer.duplicateSkipped(job, earlier));
    }

    @Override
    public void suspectIsolated(Job job, long isolatedDeliveries) {
        each(observer -> observer.suspectIsolated(job, isolatedDeliveries));
    }

    @Override
    public void jobFailed(Job job, JobError error) {
        each(observer -> observer.jobFailed(job, error));
    }

    @Override
    public void jobRetried(Job job, Instant at) {
        each(observer -> observer.jobRetried(job, at));
    }

    @Override
    public void jobSnoozed(Job job, Instant at) {
        each(observer -> observer.jobSnoozed(job, at));
    }

    @Override
    public void jobCancelled(Job job) {
        each(observer -> observer.jobCancelled(job));
    }

    @Override
    public void jobDeadLettered(DeadLetter letter) {
        each(observer -> observer.jobDeadLettered(letter));
    }
}
