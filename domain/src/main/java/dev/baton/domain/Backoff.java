package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;

/** How long to wait before retry number n (n = 1 for the first retry), before jitter. */
public sealed interface Backoff {

    Duration delayBefore(int retry);

    /** The same delay every time. */
    record Fixed(Duration delay) implements Backoff {
        public Fixed {
            notNull(delay, "delay");
            require(!delay.isNegative(), "backoff delay must not be negative");
            DueHorizon.checkDelay("backoff delay", delay);
        }

        @Override
        public Duration delayBefore(int retry) {
            return delay;
        }
    }

    /** {@code initial * multiplier^(retry-1)}, never more than {@code max}. */
    record Exponential(Duration initial, double multiplier, Duration max) implements Backoff {
        public Exponential {
            notNull(initial, "initial backoff");
            notNull(max, "maximum backoff");
            require(!initial.isNegative() && !initial.isZero(), "initial backoff must be positive, got " + initial);
            require(multiplier >= 1.0 && Double.isFinite(multiplier), "backoff multiplier must be >= 1");
            require(max.compareTo(initial) >= 0, "maximum backoff " + max + " is below the initial " + initial);
            DueHorizon.checkDelay("maximum backoff", max);
        }

        @Override
        public Duration delayBefore(int retry) {
            require(retry >= 1, "retries are numbered from 1");
            double millis = initial.toMillis() * Math.pow(multiplier, retry - 1);
            // pow overflows to infinity for large retries; the cap keeps the result sane.
            if (!Double.isFinite(millis) || millis >= max.toMillis()) {
                return max;
            }
            return Duration.ofMillis((long) millis);
        }
    }
}
