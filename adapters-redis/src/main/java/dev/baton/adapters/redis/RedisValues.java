package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Utf8.bytes;

import io.lettuce.core.StreamMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Redis replies read as Java values, and numbers written as arguments: the adapter talks to Redis in bytes (job
 * fields may be any bytes a client wrote), so the untyped parts of replies (XINFO, script results) are read here.
 */
final class RedisValues {
    private RedisValues() {
    }

    /** A number as a command or script argument (Redis reads numbers from their decimal text). */
    static byte[] number(long value) {
        return bytes(Long.toString(value));
    }

    /** A stream entry's fields as a flat list (name, value, ...), the form {@link WireMapping} reads. */
    static List<byte[]> fields(StreamMessage<byte[], byte[]> message) {
        List<byte[]> fields = new ArrayList<>(message.getBody().size() * 2);
        message.getBody().forEach((name, value) -> {
            fields.add(name);
            fields.add(value);
        });
        return fields;
    }

    /** A script's flat field list (name, value, ...). */
    static List<byte[]> fields(Object flat) {
        List<byte[]> fields = new ArrayList<>();
        for (Object value : (List<?>) flat) {
            fields.add((byte[]) value);
        }
        return fields;
    }

    /** An XINFO reply (name, value, name, value...) as a map. */
    static Map<String, Object> info(Object flat) {
        List<?> values = (List<?>) flat;
        Map<String, Object> info = new HashMap<>();
        for (int i = 0; i + 1 < values.size(); i += 2) {
            info.put(text(values.get(i)), values.get(i + 1));
        }
        return info;
    }

    /** A reply value as text: bytes decoded with invalid ones shown escaped, anything else (a number) as is. */
    static String text(Object value) {
        return value instanceof byte[] raw ? Utf8.escaped(raw) : Objects.toString(value);
    }
}
