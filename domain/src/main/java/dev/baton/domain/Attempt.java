package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;
import java.time.Instant;

/** One try at running a job: which try, by which consumer, when, and how it ended. */
public record Attempt(int number, ConsumerName consumer, Instant startedAt, Instant finishedAt,
                      AttemptOutcome outcome) {
    public Attempt {
        require(number >= 1, "attempt numbers start at 1, got " + number);
        notNull(consumer, "consumer");
        notNull(startedAt, "started-at");
        notNull(finishedAt, "finished-at");
        notNull(outcome, "outcome");
        require(!finishedAt.isBefore(startedAt), "an attempt cannot finish before it starts");
    }

    public Duration duration() {
        return Duration.between(startedAt, finishedAt);
    }
}
