package dev.baton.application.handler;

import dev.baton.domain.BatonException;
import dev.baton.domain.DueHorizon;
import dev.baton.domain.InvalidValueException;
import java.time.Duration;

/**
 * Thrown by a handler to run its job again after {@link #delay()} without spending an attempt: the job waits in the
 * delayed set with its attempt number unchanged, and its effect's writes roll back like those of any attempt that
 * throws (nothing of it commits). Nothing bounds how often a job snoozes: {@link dev.baton.domain.Job#snoozes()}
 * counts them for a handler that wants to stop (see docs/HANDLERS.md).
 */
public class SnoozeException extends BatonException {
    private final Duration delay;

    /** @param delay how long the job waits before it runs again; positive, at most {@link DueHorizon#MAX_AHEAD} */
    public SnoozeException(Duration delay) {
        super("snoozed for " + requirePositive(delay));
        this.delay = delay;
    }

    public Duration delay() {
        return delay;
    }

    private static Duration requirePositive(Duration delay) {
        if (delay == null || delay.isNegative() || delay.isZero()) {
            throw new InvalidValueException("a snooze needs a positive delay, got " + delay);
        }
        return DueHorizon.checkDelay("a snooze's delay", delay);
    }
}
