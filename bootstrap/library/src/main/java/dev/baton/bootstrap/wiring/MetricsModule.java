package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
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
 * Micrometer with the Prometheus registry behind {@code /metrics} (or the application's registry, {@link
 * #useRegistry}), and the observers of jobs and of the worker's
 * loops: the metrics, followed by the observers other modules add with {@link #addObserver}.
 */
final class MetricsModule extends AbstractModule {
    static final Duration GAUGE_REFRESH = Duration.ofSeconds(10);

    /** Adds {@code observer}; one that is a {@link MaintenanceObserver} too hears the worker's loops as well. */
    static void addObserver(Binder binder, JobObserver observer) {
        Multibinder.newSetBinder(binder, JobObserver.class).addBinding().toInstance(observer);
        if (observer instanceof MaintenanceObserver maintenance) {
            Multibinder.newSetBinder(binder, MaintenanceObserver.class).addBinding().toInstance(maintenance);
        }
    }

    /** Baton's meters go to the application's {@code registry} instead of Baton's own Prometheus registry. */
    static void useRegistry(Binder binder, MeterRegistry registry) {
        OptionalBinder.newOptionalBinder(binder, MeterRegistry.class).setBinding().toInstance(registry);
    }

    @Override
    protected void configure() {
        Multibinder.newSetBinder(binder(), JobObserver.class);
        Multibinder.newSetBinder(binder(), MaintenanceObserver.class);
        OptionalBinder.newOptionalBinder(binder(), MeterRegistry.class).setDefault().to(PrometheusMeterRegistry.class);
    }

    @Provides
    @Singleton
    PrometheusMeterRegistry prometheus() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    @Provides
    @Singleton
    MicrometerWorkerObserver metrics(MeterRegistry registry) {
        return new MicrometerWorkerObserver(registry);
    }

    @Provides
    @Singleton
    JobObserver jobObserver(MicrometerWorkerObserver metrics, Set<JobObserver> added) {
        return FanOutJobObserver.of(metricsFirst(metrics, added));
    }

    @Provides
    @Singleton
    MaintenanceObserver maintenanceObserver(MicrometerWorkerObserver metrics, Set<MaintenanceObserver> added) {
        return new FanOutMaintenanceObserver(metricsFirst(metrics, added));
    }

    private static <T> List<T> metricsFirst(T metrics, Set<T> added) {
        List<T> all = new ArrayList<>(List.of(metrics));
        all.addAll(added);
        return all;
    }

    @Provides
    @Singleton
    QueueGauges gauges(InspectQueueUseCase inspect, KnownQueues queues, MeterRegistry registry) {
        return new QueueGauges(inspect, queues, registry, GAUGE_REFRESH);
    }
}
