package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One scheduler pass over one schedule: the fire times to run, ascending, or the instant up to which fire times are
 * settled without running (when the catch-up policy skips them all).
 */
public record FirePlan(List<Instant> fire, Optional<Instant> settleThrough) {
    public FirePlan {
        fire = List.copyOf(notNull(fire, "fire times"));
        notNull(settleThrough, "settle-through");
    }
}
