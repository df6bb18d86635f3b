package dev.baton.bootstrap.json;

import dev.baton.domain.BatonException;

/** JSON that does not parse, or does not bind to its record: the message says where and what, without Jackson's. */
public final class JsonException extends BatonException {
    JsonException(String message, Throwable cause) {
        super(message, cause);
    }

    static JsonException cannotWrite(Object value, String problem, Throwable cause) {
        return new JsonException("cannot write " + value.getClass().getSimpleName() + " as JSON: " + problem, cause);
    }
}
