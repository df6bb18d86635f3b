package dev.baton.domain;

import java.time.Duration;

/** Spreads retries of many jobs that failed together, so they do not come back as one thundering herd. */
public enum Jitter {
    /** The backoff delay exactly. */
    NONE,
    /** Uniform in [0, delay]. */
    FULL,
    /** Half the delay plus uniform in [0, delay/2]. */
    EQUAL;

    public Duration apply(Duration delay, RandomSource random) {
        long millis = delay.toMillis();
        return switch (this) {
            case NONE -> delay;
            case FULL -> Duration.ofMillis(Math.round(millis * unit(random)));
            case EQUAL -> Duration.ofMillis(millis / 2 + Math.round((millis - millis / 2) * unit(random)));
        };
    }

    private static double unit(RandomSource random) {
        double value = random.nextDouble();
        if (!(value >= 0.0 && value < 1.0)) {
            throw new InvalidValueException("random source must return values in [0, 1), got " + value);
        }
        return value;
    }
}
