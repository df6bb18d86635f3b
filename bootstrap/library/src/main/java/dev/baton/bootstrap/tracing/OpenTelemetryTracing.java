package dev.baton.bootstrap.tracing;

import dev.baton.application.port.out.JobTracing;
import dev.baton.domain.Job;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Jobs traced through the OpenTelemetry API, by the messaging semantic conventions: a {@code send <queue>} span
 * (PRODUCER) per enqueued job, in the caller's current trace, whose context travels in the job's {@code traceparent}
 * and {@code tracestate} fields (W3C Trace Context, whatever propagators the application configured, since other
 * languages read these fields too); a {@code process <queue>} span (CONSUMER) per attempt, child of the send span,
 * linked from the second attempt on to the first attempt's span. See docs/OPERATIONS.md, "Tracing".
 */
public final class OpenTelemetryTracing implements JobTracing {
    static final String SYSTEM = "baton";
    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";
    /** The first attempt's span (as a traceparent), kept on a retried job for the later attempts' links. */
    static final String FIRST_ATTEMPT = "first_attempt_traceparent";

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    private final Supplier<Tracer> tracer;

    private OpenTelemetryTracing(Supplier<Tracer> tracer) {
        this.tracer = tracer;
    }

    /** Traces through {@code openTelemetry} (e.g. the application's SDK). */
    public static JobTracing of(OpenTelemetry openTelemetry) {
        return new OpenTelemetryTracing(TracerSource.of(Objects.requireNonNull(openTelemetry, "openTelemetry")));
    }

    /** Traces through {@code GlobalOpenTelemetry}, as it is at each span. */
    static JobTracing global() {
        return new OpenTelemetryTracing(TracerSource.global());
    }

    @Override
    public Sending sending(Job job) {
        Span span = spanOf(job, "send", SpanKind.PRODUCER).startSpan();
        if (!span.getSpanContext().isValid()) {
            return () -> job; // nothing records it (no SDK): the job travels as it is
        }
        Map<String, String> headers = new HashMap<>(job.headers());
        headers.remove(TRACESTATE); // the span's own, or none: never a caller's stale one
        W3C.inject(Context.current().with(span), headers, HeaderCarrier.INSTANCE);
        Job traced = job.withHeaders(headers);
        return new Sending() {
            @Override
            public Job job() {
                return traced;
            }

            @Override
            public void sent() {
                span.end();
            }

            @Override
            public void failed(RuntimeException failure) {
                TracedAttempt.recordFailure(span, failure);
                span.end();
            }
        };
    }

    @Override
    public AttemptTrace attemptStarted(Job job) {
        Context sent = W3C.extract(Context.root(), job.headers(), HeaderCarrier.INSTANCE);
        SpanBuilder builder = spanOf(job, "process", SpanKind.CONSUMER).setParent(sent)
                .setAttribute("baton.job.attempt", (long) job.currentAttempt());
        SpanContext first = firstAttempt(job);
        if (first.isValid()) {
            builder.addLink(first);
        }
        return new TracedAttempt(builder.startSpan(), job.headers().containsKey(FIRST_ATTEMPT));
    }

    private SpanBuilder spanOf(Job job, String operation, SpanKind kind) {
        SpanBuilder builder = tracer.get().spanBuilder(operation + " " + job.queue().value())
                .setSpanKind(kind)
                .setAttribute("messaging.system", SYSTEM)
                .setAttribute("messaging.operation.name", operation)
                .setAttribute("messaging.operation.type", operation)
                .setAttribute("messaging.destination.name", job.queue().value())
                .setAttribute("messaging.message.id", job.id().value());
        job.type().ifPresent(type -> builder.setAttribute("baton.job.type", type));
        return builder;
    }

    private static SpanContext firstAttempt(Job job) {
        String first = job.headers().get(FIRST_ATTEMPT);
        if (first == null) {
            return SpanContext.getInvalid();
        }
        return Span.fromContext(W3C.extract(Context.root(), Map.of(TRACEPARENT, first), HeaderCarrier.INSTANCE))
                .getSpanContext();
    }
}
