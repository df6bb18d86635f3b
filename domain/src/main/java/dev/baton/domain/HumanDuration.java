package dev.baton.domain;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people write them: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}, or ISO-8601. */
public final class HumanDuration {
    private static final Pattern HUMAN = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private HumanDuration() {
    }

    /** @throws IllegalArgumentException with the accepted forms */
    public static Duration parse(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        Matcher human = HUMAN.matcher(trimmed);
        try {
            if (human.matches()) {
                long amount = Long.parseLong(human.group(1));
                return switch (human.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
            }
            if (trimmed.startsWith("p")) {
                return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
            }
        } catch (ArithmeticException | NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("duration out of range or malformed", e);
        }
        throw new IllegalArgumentException("expected a duration like 500ms, 30s, 5m, 2h or 1d");
    }

    /** The shortest human form that is exact: {@code 30s}, {@code 1500ms}, {@code 5m}. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 86_400_000 == 0 && millis != 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0 && millis != 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0 && millis != 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }
}
