package dev.baton.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the schedulers recorded of a schedule.
 *
 * @param settledThrough every fire time up to this instant is settled (fired or skipped); empty before any scheduler
 *                       saw the schedule
 * @param lastFire       the latest fire time whose job was enqueued
 */
public record ScheduleState(Optional<Instant> settledThrough, Optional<Instant> lastFire) {
    public static final ScheduleState NEVER_SEEN = new ScheduleState(Optional.empty(), Optional.empty());

    public ScheduleState {
        Objects.requireNonNull(settledThrough, "settled-through");
        Objects.requireNonNull(lastFire, "last fire");
    }
}
