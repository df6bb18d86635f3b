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

    /** {@code <name>-<n>}: the name a second, third, … worker takes while this one is held by a live one. */
    public ConsumerName numbered(int n) {
        require(n >= 2, "a numbered consumer name counts from 2, got " + n);
        return new ConsumerName(value + "-" + n);
    }

    /**
     * True for this name itself and {@code <this name>-<digits>}: what workers under this stable name may have left
     * in a consumer group, numbered while another held the name, or as {@code <host>-<pid>} before names were stable.
     */
    public boolean isRunOf(ConsumerName stable) {
        return value.equals(stable.value) || (value.length() > stable.value.length() + 1
                && value.startsWith(stable.value + "-")
                && value.substring(stable.value.length() + 1).chars().allMatch(c -> c >= '0' && c <= '9'));
    }

    @Override
    public String toString() {
        return value;
    }
}
