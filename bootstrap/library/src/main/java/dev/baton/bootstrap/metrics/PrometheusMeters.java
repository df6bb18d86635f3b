package dev.baton.bootstrap.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Baton's own Prometheus registry. The one class that names the optional Prometheus registry, loaded only once
 * {@link Meters#own()} found it on the classpath.
 */
final class PrometheusMeters {
    private PrometheusMeters() {
    }

    static Meters create() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        return Meters.scraped(registry, registry::scrape);
    }
}
