package dev.baton.bootstrap.jobs;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.bootstrap.json.JsonCodec;
import dev.baton.bootstrap.json.JsonException;

/** The one JSON mapping of typed jobs' payloads: strict, as {@link JsonCodec#bind} says. */
final class JsonPayloads {
    private JsonPayloads() {
    }

    static String write(Object job) {
        return JsonCodec.onClasspath().write(job);
    }

    /** @throws NonRetryableException when the payload does not bind: the same payload never will */
    static <T> T read(String payload, Class<T> type) {
        try {
            return JsonCodec.onClasspath().bind(payload, type);
        } catch (JsonException e) {
            throw new NonRetryableException("payload does not bind to " + type.getSimpleName() + ": "
                    + e.getMessage());
        }
    }
}
