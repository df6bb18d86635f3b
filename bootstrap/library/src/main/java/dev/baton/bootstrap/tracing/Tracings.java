package dev.baton.bootstrap.tracing;

import dev.baton.application.port.out.JobTracing;
import dev.baton.bootstrap.config.Classpath;

/**
 * Where Baton's tracing comes from when the builder names no OpenTelemetry: {@code GlobalOpenTelemetry} when the
 * OpenTelemetry API is on the classpath, nothing otherwise. This class names no OpenTelemetry type, so that asking
 * loads none when the API is absent.
 */
public final class Tracings {
    private static final String API_PROBE = "io.opentelemetry.api.GlobalOpenTelemetry";

    private Tracings() {
    }

    /** Traces through {@code GlobalOpenTelemetry} when its API is on the classpath; {@link JobTracing#NONE} if not. */
    public static JobTracing fromClasspath() {
        return Classpath.has(API_PROBE) ? OpenTelemetryTracing.global() : JobTracing.NONE;
    }
}
