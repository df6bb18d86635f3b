package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Duration;
import java.time.Instant;

/** What happens to a job after a failed attempt. */
public sealed interface RetryDecision {

    /** Run the job again, not before {@code at}. */
    record RetryAt(Instant at, Duration delay) implements RetryDecision {
        public RetryAt {
            notNull(at, "retry instant");
            notNull(delay, "delay");
        }
    }

    /** Give up: move the job to the dead letters for {@code reason}. */
    record DeadLetterNow(DeadLetterReason reason) implements RetryDecision {
        public DeadLetterNow {
            notNull(reason, "reason");
        }
    }
}
