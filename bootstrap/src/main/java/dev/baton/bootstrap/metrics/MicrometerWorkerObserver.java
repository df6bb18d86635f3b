package dev.baton.bootstrap.metrics;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.application.port.out.WorkerObserver;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;

/**
 * Worker and producer events as Micrometer meters, tagged by queue: counters {@code baton.jobs.*}, and the timers
 * {@code baton.job.processing} and {@code baton.job.wait} (enqueue to start) with percentiles. Meters are looked up
 * per event (Micrometer caches them), so a new queue needs no registration step.
 */
public final class MicrometerWorkerObserver implements WorkerObserver {
    private static final double[] PERCENTILES = {0.5, 0.95, 0.99};

    private final MeterRegistry registry;

    public MicrometerWorkerObserver(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void jobEnqueued(Job job) {
        count("baton.jobs.enqueued", job.queue());
    }

    @Override
    public void jobStarted(Job job, Duration waited) {
        timer("baton.job.wait", "time from first enqueue to the start of an attempt", job.queue()).record(waited);
    }

    @Override
    public void jobCompleted(Job job, Duration processing) {
        count("baton.jobs.completed", job.queue());
        timer("baton.job.processing", "duration of attempts that completed", job.queue()).record(processing);
    }

    @Override
    public void duplicateSkipped(Job job) {
        count("baton.jobs.duplicates", job.queue());
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
    public void jobDeadLettered(QueueName queue, DeadLetterReason reason) {
        Counter.builder("baton.jobs.dead.lettered").tag("queue", queue.value()).tag("reason", reason.name())
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

    private void count(String name, QueueName queue) {
        Counter.builder(name).tag("queue", queue.value()).register(registry).increment();
    }

    private Timer timer(String name, String description, QueueName queue) {
        return Timer.builder(name).description(description).tag("queue", queue.value())
                .publishPercentiles(PERCENTILES).register(registry);
    }
}
