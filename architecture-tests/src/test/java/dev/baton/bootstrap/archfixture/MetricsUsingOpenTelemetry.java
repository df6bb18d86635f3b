package dev.baton.bootstrap.archfixture;

import io.opentelemetry.api.OpenTelemetry;

/** Broken on purpose: OpenTelemetry belongs to dev.baton.bootstrap.tracing (BatonBuilder only hands it over). */
public class MetricsUsingOpenTelemetry {
    public Object tracer(OpenTelemetry openTelemetry) {
        return openTelemetry.getTracer("metrics");
    }
}
