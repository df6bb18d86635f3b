package dev.baton.bootstrap.tracing;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.Map;

/** A job's headers as the carrier of the W3C trace context: {@code traceparent} and {@code tracestate} fields. */
enum HeaderCarrier implements TextMapGetter<Map<String, String>>, TextMapSetter<Map<String, String>> {
    INSTANCE;

    @Override
    public Iterable<String> keys(Map<String, String> headers) {
        return headers.keySet();
    }

    @Override
    public String get(Map<String, String> headers, String key) {
        return headers == null ? null : headers.get(key);
    }

    @Override
    public void set(Map<String, String> headers, String key, String value) {
        if (headers != null) {
            headers.put(key, value);
        }
    }
}
