package dev.baton.application.service;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.JobTracing;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** Turns enqueue commands into jobs stamped with the clock and publishes them, each in its trace. */
public final class EnqueueService implements EnqueueJobUseCase, EnqueueJobsUseCase, EnqueueUniqueJobUseCase {
    private final JobPublisher publisher;
    private final Clock clock;
    private final PayloadLimit payloadLimit;
    private final JobObserver observer;
    private final JobTracing tracing;

    public EnqueueService(JobPublisher publisher, Clock clock, PayloadLimit payloadLimit, JobObserver observer,
                          JobTracing tracing) {
        this.publisher = publisher;
        this.clock = clock;
        this.payloadLimit = payloadLimit;
        this.observer = observer;
        this.tracing = tracing;
    }

    public EnqueueService(JobPublisher publisher, Clock clock, PayloadLimit payloadLimit,
                          JobObserver observer) {
        this(publisher, clock, payloadLimit, observer, JobTracing.NONE);
    }

    public EnqueueService(JobPublisher publisher, Clock clock, PayloadLimit payloadLimit) {
        this(publisher, clock, payloadLimit, JobObserver.NONE);
    }

    @Override
    public Job enqueue(EnqueueJobUseCase.Command command) {
        JobTracing.Sending sending = tracing.sending(toJob(command, clock.instant()));
        try {
            publisher.publish(sending.job());
        } catch (RuntimeException e) {
            sending.failed(e);
            throw e;
        }
        sending.sent();
        observer.jobEnqueued(sending.job());
        return sending.job();
    }

    /**
     * A job told that another holds its key was not sent: its send ends as "sent" all the same (nothing failed), and
     * the observer hears of no enqueue.
     */
    @Override
    public Outcome enqueueUnique(EnqueueUniqueJobUseCase.Command command) {
        JobTracing.Sending sending = tracing.sending(command.uniqueness().on(toJob(command.job(), clock.instant())));
        JobId holder;
        try {
            holder = publisher.publishUnique(sending.job());
        } catch (RuntimeException e) {
            sending.failed(e);
            throw e;
        }
        sending.sent();
        if (!holder.equals(sending.job().id())) {
            return new Outcome.AlreadyHeld(holder);
        }
        observer.jobEnqueued(sending.job());
        return new Outcome.Enqueued(sending.job());
    }

    @Override
    public List<Job> enqueueAll(EnqueueJobsUseCase.Command command) {
        Instant now = clock.instant();
        // validate every job before publishing any, so a bad one does not leave half a batch behind
        List<JobTracing.Sending> sendings = command.jobs().stream().map(job -> tracing.sending(toJob(job, now)))
                .toList();
        List<Job> jobs = sendings.stream().map(JobTracing.Sending::job).toList();
        try {
            publisher.publishAll(jobs);
        } catch (RuntimeException e) {
            sendings.forEach(sending -> sending.failed(e));
            throw e;
        }
        sendings.forEach(JobTracing.Sending::sent);
        jobs.forEach(observer::jobEnqueued);
        return jobs;
    }

    private Job toJob(EnqueueJobUseCase.Command command, Instant now) {
        payloadLimit.check(command.payload());
        return command.toJob(now);
    }
}
