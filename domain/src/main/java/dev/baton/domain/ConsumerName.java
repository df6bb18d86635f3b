package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

/** A worker's stable, observable name inside a consumer group (for example {@code host-1234}). */
public record ConsumerName(String value) {
    public ConsumerName {
        notNull(value, "consumer name");
        require(!value.isBlank() && value.length() <= 200, "consumer name must have 1..200 characters");
        require(Text.printable(value) && value.chars().noneMatch(Character::isWhitespace),
                "consumer name must be printable and contain no spaces");
    }

    public static ConsumerName of(String value) {
        return new ConsumerName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
