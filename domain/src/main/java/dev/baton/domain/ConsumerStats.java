package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Duration;

/** One consumer of a queue's group: how many entries it holds and how long since it last did anything. */
public record ConsumerStats(String name, long pending, Duration idle) {
    public ConsumerStats {
        notNull(name, "consumer name");
        notNull(idle, "idle");
    }
}
