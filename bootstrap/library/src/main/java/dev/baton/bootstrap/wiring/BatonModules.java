package dev.baton.bootstrap.wiring;

import com.google.inject.Module;
import com.google.inject.util.Modules;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Mode;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/** The module sets a {@code Baton} is built from: swapping adapters means swapping {@link #adapters}. */
public final class BatonModules {
    private BatonModules() {
    }

    /** Configuration, services, metrics: the same whatever the adapters. */
    public static List<Module> core(BatonConfig config, Clock clock) {
        return List.of(new SettingsModule(config, clock), new ServicesModule(), new MetricsModule());
    }

    /**
     * Adds {@code observer} to the observers of jobs, after the metrics; one that is a {@code MaintenanceObserver}
     * too also hears the worker's loops.
     */
    public static Module observer(JobObserver observer) {
        Objects.requireNonNull(observer, "observer");
        return binder -> MetricsModule.addObserver(binder, observer);
    }

    /** Traces jobs through {@code tracing} instead of the classpath's {@code GlobalOpenTelemetry} (the default). */
    public static Module tracing(JobTracing tracing) {
        Objects.requireNonNull(tracing, "tracing");
        return binder -> ServicesModule.useTracing(binder, tracing);
    }

    /** Baton's meters on the application's {@code registry} instead of Baton's own Prometheus registry. */
    public static Module meterRegistry(MeterRegistry registry) {
        Objects.requireNonNull(registry, "meter registry");
        return binder -> MetricsModule.useRegistry(binder, registry);
    }

    /** Redis, plus PostgreSQL in exactly-once mode. */
    public static Module adapters(BatonConfig config) {
        return config.mode() == Mode.EXACTLY_ONCE ? Modules.combine(new RedisModule(), new PostgresModule())
                : Modules.combine(new RedisModule(), new AtLeastOnceModule());
    }
}
