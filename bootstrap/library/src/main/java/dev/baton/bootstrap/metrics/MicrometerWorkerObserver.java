package dev.baton.bootstrap.metrics;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The events of jobs and of the worker's loops as Micrometer meters, tagged by queue: counters {@code baton.jobs.*}
 * (among them {@code baton.jobs.isolated}, suspects run alone in their worker, and {@code baton.jobs.id.collisions},
 * duplicates that were other jobs under one id, counted with {@code baton.jobs.duplicates}), {@code
 * baton.stream.trimmed}, the outbox relay's {@code baton.outbox.published} and {@code baton.outbox.republished}
 * (untagged), and the timers {@code baton.job.processing} and {@code baton.job.wait} (enqueue to start) with
 * percentiles. A new queue needs no registration step: its meters are registered on its first event. The
 * meters of every job (enqueued, started, completed) are kept per queue here, because Micrometer's own lookup
 * (builder, tags, map) cost more than the rest of a no-op job; the rarer events look their meters up each time.
 */
public final class MicrometerWorkerObserver implements JobObserver, MaintenanceObserver {
    private static final double[] PERCENTILES = {0.5, 0.95, 0.99};

    private final MeterRegistry registry;
    private final Map<QueueName, JobMeters> jobMeters = new ConcurrentHashMap<>();

    public MicrometerWorkerObserver(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void jobEnqueued(Job job) {
        meters(job.queue()).enqueued().increment();
    }

    @Override
    public void jobStarted(Job job, Duration waited) {
        meters(job.queue()).waited().record(waited);
    }

    @Override
    public void jobCompleted(Job job, Duration processing) {
        JobMeters meters = meters(job.queue());
        meters.completed().increment();
        meters.processing().record(processing);
    }

    @Override
    public void duplicateSkipped(Job job, Completion earlier) {
        count("baton.jobs.duplicates", job.queue());
        if (!earlier.isOf(job)) {
            count("baton.jobs.id.collisions", job.queue());
        }
    }

    @Override
    public void suspectIsolated(Job job, long isolatedDeliveries) {
        count("baton.jobs.isolated", job.queue());
    }

    @Override
    public void jobFailed(Job job, JobError error) {
        count("baton.jobs.failed", job.queue());
    }

    @Override
    public void jobRetried(Job job, Instant at) {
        count("baton.jobs.retried", job.queue());
    }

    @Override
    public void jobSnoozed(Job job, Instant at) {
        count("baton.jobs.snoozed", job.queue());
    }

    @Override
    public void jobCancelled(Job job) {
        count("baton.jobs.cancelled", job.queue());
    }

    @Override
    public void jobDeadLettered(DeadLetter letter) {
        Counter.builder("baton.jobs.dead.lettered").tag("queue", letter.queue().value())
                .tag("reason", letter.reason().name())
                .register(registry).increment();
    }

    @Override
    public void reclaimed(QueueName queue, int count) {
        Counter.builder("baton.jobs.reclaimed").tag("queue", queue.value()).register(registry).increment(count);
    }

    @Override
    public void leaseLost(QueueName queue, DeliveryId id) {
        count("baton.jobs.lease.lost", queue);
    }

    @Override
    public void vanished(QueueName queue, int count) {
        Counter.builder("baton.jobs.vanished").tag("queue", queue.value()).register(registry).increment(count);
    }

    @Override
    public void trimmed(QueueName queue, TrimOutcome outcome) {
        Counter.builder("baton.stream.trimmed").tag("queue", queue.value()).register(registry)
                .increment(outcome.removed());
    }

    @Override
    public void outboxPublished(int count) {
        Counter.builder("baton.outbox.published").register(registry).increment(count);
    }

    @Override
    public void outboxRepublished(int count) {
        Counter.builder("baton.outbox.republished").register(registry).increment(count);
    }

    private JobMeters meters(QueueName queue) {
        JobMeters meters = jobMeters.get(queue);
        return meters != null ? meters : jobMeters.computeIfAbsent(queue, this::register);
    }

    private JobMeters register(QueueName queue) {
        return new JobMeters(counter("baton.jobs.enqueued", queue),
                timer("baton.job.wait", "time from first enqueue to the start of an attempt", queue),
                counter("baton.jobs.completed", queue),
                timer("baton.job.processing", "duration of attempts that completed", queue));
    }

    private void count(String name, QueueName queue) {
        counter(name, queue).increment();
    }

    private Counter counter(String name, QueueName queue) {
        return Counter.builder(name).tag("queue", queue.value()).register(registry);
    }

    private Timer timer(String name, String description, QueueName queue) {
        return Timer.builder(name).description(description).tag("queue", queue.value())
                .publishPercentiles(PERCENTILES).register(registry);
    }

    /** The meters every job of a queue touches. */
    private record JobMeters(Counter enqueued, Timer waited, Counter completed, Timer processing) {
    }
}
