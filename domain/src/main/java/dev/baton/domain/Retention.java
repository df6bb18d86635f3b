package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;

/**
 * How long acknowledged history is kept. Trimming never removes pending or undelivered work whatever this says;
 * the execution ledger must keep completions at least this long, or a very late redelivery could run again.
 */
public record Retention(Duration maxAge) {
    public static final Retention DEFAULT = new Retention(Duration.ofDays(1));

    public Retention {
        notNull(maxAge, "retention");
        require(!maxAge.isNegative() && !maxAge.isZero(), "retention must be positive, got " + maxAge);
    }

    /** True when {@code other} keeps history at least as long as this retention. */
    public boolean isCoveredBy(Retention other) {
        return other.maxAge.compareTo(maxAge) >= 0;
    }
}
