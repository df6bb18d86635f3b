package dev.baton.bootstrap.jobs;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.baton.application.handler.NonRetryableException;
import java.io.UncheckedIOException;
import java.util.stream.Collectors;

/**
 * The one JSON mapping of typed jobs' payloads. Strict where a lenient bind would run a job on made-up values:
 * every record component must be present (a missing one is not silently null or 0) and a primitive refuses null.
 * Unknown fields are ignored, so that a producer can send a new field before every worker knows it.
 */
final class JsonPayloads {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private JsonPayloads() {
    }

    static String write(Object job) {
        try {
            return MAPPER.writeValueAsString(job);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write " + job.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** @throws NonRetryableException when the payload does not bind: the same payload never will */
    static <T> T read(String payload, Class<T> type) {
        try {
            return MAPPER.readValue(payload, type);
        } catch (JsonProcessingException e) {
            throw new NonRetryableException("payload does not bind to " + type.getSimpleName() + ": " + problem(e));
        }
    }

    /** Where (Jackson's path, e.g. {@code field 'items[0].sku'}) and what, without Jackson's hints and excerpts. */
    private static String problem(JsonProcessingException e) {
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            return "field '" + path(mapping) + "': " + what(e);
        }
        return what(e);
    }

    /**
     * Jackson reports a missing component and a null primitive with the same exception as any other mismatch: only
     * its message tells them apart, and it ends in advice about Jackson's settings that means nothing to a producer.
     */
    private static String what(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        if (e instanceof InvalidFormatException invalid) {
            return "not a valid " + invalid.getTargetType().getSimpleName() + " ('" + invalid.getValue() + "')";
        }
        if (e instanceof ValueInstantiationException refused && refused.getCause() != null) {
            String record = refused.getType().getRawClass().getSimpleName();
            return "refused by " + record + " (" + refused.getCause().getMessage() + ")";
        }
        if (e instanceof JsonParseException) {
            return "not JSON (" + message.split(": ", 2)[0] + ")";
        }
        if (message.startsWith("Missing creator property")) {
            return "missing";
        }
        if (message.startsWith("Cannot map `null`") && e instanceof MismatchedInputException mismatch) {
            return "null, but " + mismatch.getTargetType().getSimpleName() + " cannot be null";
        }
        return message.lines().findFirst().orElse(message);
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
    }
}
