package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

/** The transport's id of one dead letter (an entry id of the dead-letter stream, partition-qualified). */
public record DeadLetterId(String value) {
    public DeadLetterId {
        notNull(value, "dead letter id");
        require(!value.isBlank() && value.length() <= 200, "dead letter id must have 1..200 characters");
    }

    public static DeadLetterId of(String value) {
        return new DeadLetterId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
