package dev.baton.bootstrap.config;

import dev.baton.domain.HumanDuration;
import java.time.Duration;

/** Human durations: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}, or ISO-8601 ({@code PT30S}). */
public final class Durations {

    private Durations() {
    }

    /** @throws IllegalArgumentException with the accepted forms */
    public static Duration parse(String text) {
        return HumanDuration.parse(text);
    }

    /** The shortest human form that is exact: {@code 30s}, {@code 1500ms}, {@code 5m}. */
    public static String format(Duration duration) {
        return HumanDuration.format(duration);
    }
}
