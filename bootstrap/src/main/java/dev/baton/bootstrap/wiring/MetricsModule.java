package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.bootstrap.metrics.MicrometerWorkerObserver;
import dev.baton.bootstrap.metrics.QueueGauges;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Micrometer with the Prometheus registry behind {@code /metrics}, and the observer of workers and producers: the
 * metrics, followed by the observers other modules add with {@link #addObserver}.
 */
final class MetricsModule extends AbstractModule {
    static final Duration GAUGE_REFRESH = Duration.ofSeconds(10);

    static void addObserver(Binder binder, JobObserver observer) {
        Multibinder.newSetBinder(binder, JobObserver.class).addBinding().toInstance(observer);
    }

    @Override
    protected void configure() {
        Multibinder.newSetBinder(binder(), JobObserver.class);
    }

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
    JobObserver observer(MeterRegistry registry, Set<JobObserver> added) {
        List<JobObserver> all = new ArrayList<>(List.of(new MicrometerWorkerObserver(registry)));
        all.addAll(added);
        return FanOutJobObserver.of(all);
    }

    @Provides
    @Singleton
    QueueGauges gauges(InspectQueueUseCase inspect, KnownQueues queues, MeterRegistry registry) {
        return new QueueGauges(inspect, queues, registry, GAUGE_REFRESH);
    }
}
