package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.util.regex.Pattern;

/** A schedule's name, part of the id of every job it fires: {@code nightly-report}. */
public record ScheduleName(String value) {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    public ScheduleName {
        notNull(value, "schedule name");
        require(VALID.matcher(value).matches(), "schedule name '" + Text.abbreviate(value, 120)
                + "' is invalid: use 1..100 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }

    public static ScheduleName of(String value) {
        return new ScheduleName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
