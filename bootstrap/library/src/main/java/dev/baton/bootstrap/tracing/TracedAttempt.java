package dev.baton.bootstrap.tracing;

import dev.baton.application.port.out.JobTracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** One attempt's {@code process} span: current while the handler runs, ended with how the worker settled it. */
final class TracedAttempt implements JobTracing.AttemptTrace {
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("baton.job.outcome");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final Span span;
    /** Whether the job already names its first attempt: then a retry keeps that one. */
    private final boolean firstAttemptKnown;

    TracedAttempt(Span span, boolean firstAttemptKnown) {
        this.span = span;
        this.firstAttemptKnown = firstAttemptKnown;
    }

    @Override
    public <T> T during(JobTracing.HandlerCall<T> handler) throws Exception {
        try (Scope ignored = span.makeCurrent()) {
            return handler.call();
        }
    }

    @Override
    public Map<String, String> retryHeaders() {
        if (firstAttemptKnown || !span.getSpanContext().isValid()) {
            return Map.of();
        }
        Map<String, String> carried = new HashMap<>();
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), carried, HeaderCarrier.INSTANCE);
        return Map.of(OpenTelemetryTracing.FIRST_ATTEMPT, carried.get(OpenTelemetryTracing.TRACEPARENT));
    }

    @Override
    public void ended(JobTracing.AttemptEnd end, Optional<Throwable> cause) {
        span.setAttribute(OUTCOME, end.name().toLowerCase(Locale.ROOT));
        cause.ifPresent(failure -> recordFailure(span, failure));
        span.end();
    }

    /** The error on the span, as the semantic conventions put it: the exception event, status and error type. */
    static void recordFailure(Span span, Throwable failure) {
        span.recordException(failure);
        span.setAttribute(ERROR_TYPE, failure.getClass().getName());
        span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
    }
}
