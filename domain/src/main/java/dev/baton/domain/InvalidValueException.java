package dev.baton.domain;

/** A value object was given a value that breaks its invariant (bad input, never a bug in Baton). */
public final class InvalidValueException extends BatonException {
    public InvalidValueException(String message) {
        super(message);
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw new InvalidValueException(message);
        }
    }

    static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidValueException(name + " is required");
        }
        return value;
    }
}
