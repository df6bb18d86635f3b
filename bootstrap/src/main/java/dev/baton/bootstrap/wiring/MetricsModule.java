package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.out.WorkerObserver;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.bootstrap.metrics.MicrometerWorkerObserver;
import dev.baton.bootstrap.metrics.QueueGauges;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;

/** Micrometer with the Prometheus registry behind {@code /metrics}. */
final class MetricsModule extends AbstractModule {
    static final Duration GAUGE_REFRESH = Duration.ofSeconds(10);

    @Provides
    @Singleton
    PrometheusMeterRegistry prometheus() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    @Provides
    MeterRegistry registry(PrometheusMeterRegistry prometheus) {
        return prometheus;
    }

    @Provides
    @Singleton
    WorkerObserver observer(MeterRegistry registry) {
        return new MicrometerWorkerObserver(registry);
    }

    @Provides
    @Singleton
    QueueGauges gauges(InspectQueueUseCase inspect, KnownQueues queues, MeterRegistry registry) {
        return new QueueGauges(inspect, queues, registry, GAUGE_REFRESH);
    }
}
