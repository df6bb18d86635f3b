package dev.baton.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * How far ahead a job may be due: {@link #MAX_AHEAD}, 10 years counted as 3,653 days. A due time beyond it is a
 * mistake (an {@code infinity}, a delay in the wrong unit), not a plan: the job would wait in the delayed set for
 * ever. Every enqueue path checks it against its clock; delays, backoffs and snoozes stay within it
 * (docs/OPERATIONS.md#due-times).
 */
public final class DueHorizon {
    /** The longest a job may wait for its due time: 10 years, counted as 3,653 days. */
    public static final Duration MAX_AHEAD = Duration.ofDays(3653);

    private DueHorizon() {
    }

    /** Returns {@code due} when it is at most {@link #MAX_AHEAD} after {@code now}; else a clear error. */
    public static Instant check(Instant due, Instant now) {
        Instant latest = now.plus(MAX_AHEAD);
        if (due.isAfter(latest)) {
            throw new InvalidValueException("due time " + due + " is more than 10 years (3653 days) ahead: the"
                    + " latest allowed now is " + latest);
        }
        return due;
    }

    /** Returns {@code delay} when it is at most {@link #MAX_AHEAD}; else a clear error naming {@code what}. */
    public static Duration checkDelay(String what, Duration delay) {
        if (delay.compareTo(MAX_AHEAD) > 0) {
            throw new InvalidValueException(what + " " + delay + " is more than 10 years (3653 days)");
        }
        return delay;
    }
}
