package dev.baton.bootstrap.metrics;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.InspectQueueUseCase.QueueReport;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-queue gauges (length, lag, pending, delayed, dead, oldest pending idle, suspects under isolation and their
 * isolated deliveries) refreshed on a schedule: a scrape reads
 * the last snapshot, so many scrapers never turn into many round trips to Redis.
 */
public final class QueueGauges implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueueGauges.class);

    private final InspectQueueUseCase inspect;
    private final KnownQueues queues;
    private final MeterRegistry registry;
    private final Map<QueueName, QueueReport> latest = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;

    public QueueGauges(InspectQueueUseCase inspect, KnownQueues queues, MeterRegistry registry, Duration every) {
        this.inspect = inspect;
        this.queues = queues;
        this.registry = registry;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-queue-gauges");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::refresh, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Reads every known queue's numbers once; a failing queue keeps its previous values. One refresh at a time: the
     * one that reads a queue first registers its gauges, and another must not return before they are there.
     */
    public synchronized void refresh() {
        for (QueueName queue : queues.all()) {
            try {
                QueueReport report = inspect.inspect(new InspectQueueUseCase.Command(queue));
                if (latest.put(queue, report) == null) {
                    register(queue);
                    if (report.completed().isPresent()) {
                        registerLedger(queue);
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("queue gauges refresh failed queue={} error={}", queue, e.toString());
            }
        }
    }

    private void register(QueueName queue) {
        gauge("baton.queue.length", queue, r -> r.stats().length());
        gauge("baton.queue.lag", queue, r -> r.stats().lag().orElse(0));
        gauge("baton.queue.pending", queue, r -> r.stats().pending());
        gauge("baton.queue.delayed", queue, r -> r.stats().delayed());
        gauge("baton.queue.dead", queue, r -> r.stats().dead());
        gauge("baton.queue.suspects", queue, r -> r.stats().suspects());
        gauge("baton.queue.isolated.deliveries", queue, r -> r.stats().isolatedDeliveries());
        gauge("baton.queue.consumers", queue, r -> r.stats().consumers().size());
        gauge("baton.queue.paused", queue, r -> r.stats().paused() ? 1 : 0);
        gauge("baton.queue.oldest.pending.idle.seconds", queue, r -> r.stats().oldestPendingIdle().toMillis() / 1000.0);
    }

    /** The ledger's dead letters by reason: what Redis may have lost or rolled back, the ledger still counts. */
    private void registerLedger(QueueName queue) {
        for (DeadLetterReason reason : DeadLetterReason.values()) {
            gauge("baton.ledger.dead", queue, r -> r.deadByReason().getOrDefault(reason, 0L), Tags.of("reason",
                    reason.name()));
        }
    }

    private void gauge(String name, QueueName queue, ToDoubleFunction<QueueReport> value) {
        gauge(name, queue, value, Tags.empty());
    }

    private void gauge(String name, QueueName queue, ToDoubleFunction<QueueReport> value, Tags tags) {
        Gauge.builder(name, latest, reports -> {
            QueueReport report = reports.get(queue);
            return report == null ? Double.NaN : value.applyAsDouble(report);
        }).tag("queue", queue.value()).tags(tags).register(registry);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
