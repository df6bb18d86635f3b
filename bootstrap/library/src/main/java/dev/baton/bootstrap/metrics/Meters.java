package dev.baton.bootstrap.metrics;

import dev.baton.bootstrap.config.Classpath;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The registry Baton's meters go to, and what the admin server's {@code /metrics} serves of it. The application's
 * registry when it gives one (its own endpoint shows the meters); otherwise Baton's own: Prometheus's when
 * {@code io.micrometer:micrometer-registry-prometheus} is on the classpath, served as Prometheus text, else a plain
 * {@code SimpleMeterRegistry} that nothing serves.
 */
public final class Meters {
    private static final String PROMETHEUS_PROBE = "io.micrometer.prometheusmetrics.PrometheusMeterRegistry";
    static final String NO_PROMETHEUS = "no Prometheus registry on Baton's classpath: add"
            + " io.micrometer:micrometer-registry-prometheus, or give Baton your registry (meterRegistry(...))";
    static final String APPLICATIONS_REGISTRY = "Baton's meters are on the application's registry"
            + " (meterRegistry(...)): scrape them where the application serves it";

    private final MeterRegistry registry;
    private final Optional<Supplier<String>> prometheusText;
    private final String whyNoText;

    private Meters(MeterRegistry registry, Optional<Supplier<String>> prometheusText, String whyNoText) {
        this.registry = registry;
        this.prometheusText = prometheusText;
        this.whyNoText = whyNoText;
    }

    /** Baton's meters on the application's {@code registry}; {@code /metrics} shows none of them. */
    public static Meters applications(MeterRegistry registry) {
        return new Meters(Objects.requireNonNull(registry, "meter registry"), Optional.empty(),
                APPLICATIONS_REGISTRY);
    }

    /** Baton's own registry: Prometheus's when it is on the classpath, a plain one when it is not. */
    public static Meters own() {
        return Classpath.has(PROMETHEUS_PROBE) ? PrometheusMeters.create() : plain();
    }

    static Meters plain() {
        return new Meters(new SimpleMeterRegistry(), Optional.empty(), NO_PROMETHEUS);
    }

    static Meters scraped(MeterRegistry registry, Supplier<String> prometheusText) {
        return new Meters(registry, Optional.of(prometheusText), "");
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** The meters as Prometheus text, when Baton serves them itself. */
    public Optional<String> prometheusText() {
        return prometheusText.map(Supplier::get);
    }

    /** Why {@link #prometheusText()} is empty: one line naming what to do. */
    public String whyNoText() {
        return whyNoText;
    }
}
