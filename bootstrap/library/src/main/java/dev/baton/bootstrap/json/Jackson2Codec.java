package dev.baton.bootstrap.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;

/** {@link JsonCodec} on Jackson 2 ({@code com.fasterxml.jackson}): plain Java, Spring Boot 3.5. */
final class Jackson2Codec implements JsonCodec {
    private final ObjectMapper mapper = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
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
        } catch (JsonProcessingException e) {
            throw JsonException.cannotWrite(value, e.getOriginalMessage(), e);
        }
    }

    @Override
    public <T> T bind(String json, Class<T> type) {
        try {
            return mapper.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new JsonException(BindProblems.at(path(e), what(e)), e);
        }
    }

    @Override
    public Object parse(String json) {
        try {
            return mapper.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            throw new JsonException(e.getOriginalMessage(), e);
        }
    }

    private static List<Object> path(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException mapping)) {
            return List.of();
        }
        return mapping.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? (Object) ref.getFieldName() : ref.getIndex()).toList();
    }

    private static String what(JsonProcessingException e) {
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
