package dev.baton.bootstrap.json;

import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link JsonCodec} on Jackson 3 ({@code tools.jackson}): Spring Boot 4. Where Jackson 3's defaults differ from
 * Jackson 2's in what a payload looks like, they are set back to Jackson 2's, so that a producer on one and a worker
 * on the other agree: properties in declaration order, enums by name, text after the value ignored, and a value
 * without properties refused rather than written as {@code {}}.
 */
final class Jackson3Codec implements JsonCodec {
    private final ObjectMapper mapper = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .disable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
            .disable(EnumFeature.READ_ENUMS_USING_TO_STRING)
            .enable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();
    private final ObjectWriter compact = mapper.writer();
    private final ObjectWriter indented = mapper.writerWithDefaultPrettyPrinter();

    @Override
    public String write(Object value) {
        return written(compact, value);
    }

    @Override
    public String writeIndented(Object tree) {
        return written(indented, tree);
    }

    private static String written(ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsString(value);
        } catch (JacksonException e) {
            throw JsonException.cannotWrite(value, e.getOriginalMessage(), e);
        }
    }

    @Override
    public <T> T bind(String json, Class<T> type) {
        try {
            return mapper.readValue(json, type);
        } catch (JacksonException e) {
            throw new JsonException(BindProblems.at(path(e), what(e)), e);
        }
    }

    @Override
    public Object parse(String json) {
        try {
            return mapper.readValue(json, Object.class);
        } catch (JacksonException e) {
            throw new JsonException(e.getOriginalMessage(), e);
        }
    }

    private static List<Object> path(JacksonException e) {
        return e.getPath().stream()
                .map(ref -> ref.getPropertyName() != null ? (Object) ref.getPropertyName() : ref.getIndex()).toList();
    }

    private static String what(JacksonException e) {
        if (e instanceof InvalidFormatException invalid) {
            return BindProblems.notValid(invalid.getTargetType(), invalid.getValue());
        }
        if (e instanceof ValueInstantiationException refused && refused.getCause() != null) {
            return BindProblems.refused(refused.getType().getRawClass(), refused.getCause());
        }
        if (e instanceof StreamReadException) {
            return BindProblems.notJson(e.getOriginalMessage());
        }
        return BindProblems.mismatch(e.getOriginalMessage(),
                e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null);
    }
}
