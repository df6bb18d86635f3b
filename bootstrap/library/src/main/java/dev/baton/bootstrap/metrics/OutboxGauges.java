package dev.baton.bootstrap.metrics;

import dev.baton.application.port.in.InspectOutboxUseCase;
import dev.baton.domain.OutboxBacklog;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's gauges ({@code baton.outbox.waiting}, {@code baton.outbox.oldest.waiting.seconds},
 * {@code baton.outbox.malformed}), refreshed on a schedule with one indexed query: a scrape reads the last snapshot.
 * The relay's counters ({@code baton.outbox.published}, {@code baton.outbox.republished}) are the observer's.
 */
public final class OutboxGauges implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OutboxGauges.class);

    private final InspectOutboxUseCase inspect;
    private final AtomicReference<OutboxBacklog> latest = new AtomicReference<>();
    private final ScheduledExecutorService scheduler;

    public OutboxGauges(InspectOutboxUseCase inspect, MeterRegistry registry, Duration every) {
        this.inspect = inspect;
        gauge(registry, "baton.outbox.waiting", OutboxBacklog::waiting);
        gauge(registry, "baton.outbox.oldest.waiting.seconds", backlog -> backlog.oldestWaiting().toMillis() / 1000.0);
        gauge(registry, "baton.outbox.malformed", OutboxBacklog::malformed);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-outbox-gauges");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::refresh, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Reads the outbox once; a failed read keeps the previous values. */
    public void refresh() {
        try {
            latest.set(inspect.inspect());
        } catch (RuntimeException e) {
            LOG.warn("outbox gauges refresh failed error={}", e.toString());
        }
    }

    private void gauge(MeterRegistry registry, String name, ToDoubleFunction<OutboxBacklog> value) {
        Gauge.builder(name, latest, snapshot -> {
            OutboxBacklog backlog = snapshot.get();
            return backlog == null ? Double.NaN : value.applyAsDouble(backlog);
        }).register(registry);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
