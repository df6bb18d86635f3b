package dev.baton.bootstrap.examples;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.BatonBuilder;
import dev.baton.bootstrap.examples.ShippingJobs.ShipParcel;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.util.Optional;

/** Tracing: a job enqueued inside the application's span continues that trace in the worker, attempt by attempt. */
public final class TracedShipping {
    private final Baton baton;
    private final Tracer tracer;
    private final QueueName queue;

    public TracedShipping(Baton baton, OpenTelemetry openTelemetry, QueueName queue) {
        this.baton = baton;
        this.tracer = openTelemetry.getTracer("shop");
        this.queue = queue;
    }

    /** Without openTelemetry(...), Baton uses GlobalOpenTelemetry (a no-op until the application installs one). */
    public static BatonBuilder traced(BatonBuilder builder, OpenTelemetry openTelemetry) {
        return builder.openTelemetry(openTelemetry)
                .handler(ShippingJobs.SHIP_PARCEL, (parcel, context) -> {
                    // the attempt's "process" span is current: what the handler records or starts belongs to it
                    Span.current().setAttribute("shop.order_id", parcel.orderId());
                    return Optional.of("shipped");
                });
    }

    /** The job's "send" span is a child of the checkout's span; its context travels in the entry's traceparent. */
    public Job checkout(ShipParcel parcel) {
        Span checkout = tracer.spanBuilder("checkout").startSpan();
        try (Scope ignored = checkout.makeCurrent()) {
            return baton.enqueue(ShippingJobs.SHIP_PARCEL, queue, JobId.of("parcel-" + parcel.orderId()), parcel);
        } finally {
            checkout.end();
        }
    }
}
