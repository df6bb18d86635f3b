package dev.baton.bootstrap.tracing;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import java.util.function.Supplier;

/**
 * Baton's tracer, from a given {@link OpenTelemetry} or from {@link GlobalOpenTelemetry}. The global one is looked up
 * at every span, without setting it ({@code getOrNoop}): an application that installs its SDK after building Baton
 * still gets Baton's spans, and is not refused its {@code GlobalOpenTelemetry.set} because Baton asked first.
 */
final class TracerSource implements Supplier<Tracer> {
    static final String SCOPE = "dev.baton";

    private final Supplier<OpenTelemetry> openTelemetry;
    private volatile Resolved resolved;

    private TracerSource(Supplier<OpenTelemetry> openTelemetry) {
        this.openTelemetry = openTelemetry;
    }

    static TracerSource of(OpenTelemetry openTelemetry) {
        return new TracerSource(() -> openTelemetry);
    }

    static TracerSource global() {
        return new TracerSource(GlobalOpenTelemetry::getOrNoop);
    }

    @Override
    public Tracer get() {
        OpenTelemetry current = openTelemetry.get();
        Resolved known = resolved;
        if (known == null || known.openTelemetry() != current) {
            known = new Resolved(current, current.getTracer(SCOPE));
            resolved = known;
        }
        return known.tracer();
    }

    private record Resolved(OpenTelemetry openTelemetry, Tracer tracer) {
    }
}
