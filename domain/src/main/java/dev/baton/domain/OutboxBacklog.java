package dev.baton.domain;

import java.time.Duration;
import java.util.Objects;

/**
 * What is in the transactional outbox at one moment (docs/POSTGRES.md#the-outbox).
 *
 * @param waiting       committed rows not yet published (nor malformed)
 * @param oldestWaiting how long the oldest of them has waited; zero when none waits
 * @param malformed     rows dead-lettered MALFORMED, kept for the operator
 */
public record OutboxBacklog(long waiting, Duration oldestWaiting, long malformed) {
    public static final OutboxBacklog EMPTY = new OutboxBacklog(0, Duration.ZERO, 0);

    public OutboxBacklog {
        Objects.requireNonNull(oldestWaiting, "oldest waiting");
        if (waiting < 0 || malformed < 0 || oldestWaiting.isNegative()) {
            throw new InvalidValueException("an outbox backlog counts from zero, got " + waiting + " waiting, "
                    + malformed + " malformed, oldest " + oldestWaiting);
        }
    }
}
