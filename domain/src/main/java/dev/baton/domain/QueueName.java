package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.util.regex.Pattern;

/**
 * A queue's name. Restricted to characters that are safe inside a Redis key and its hash tag
 * ({@code baton:{orders}:stream}): no braces, colons or spaces.
 */
public record QueueName(String value) {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    public QueueName {
        notNull(value, "queue name");
        require(VALID.matcher(value).matches(),
                "queue name '" + Text.abbreviate(value, 120)
                        + "' is invalid: use 1..100 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }

    public static QueueName of(String value) {
        return new QueueName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
