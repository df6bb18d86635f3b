package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A periodic job: at each fire time of its cadence, a job on {@code queue} with {@code payload}, whose id is derived
 * from the schedule's name and the fire time ({@link #jobId}): every scheduler that fires it enqueues the same job.
 */
public record Schedule(ScheduleName name, Cadence cadence, QueueName queue, String payload, CatchUp catchUp) {
    /** The header naming the schedule that fired a job. */
    public static final String SCHEDULE_HEADER = "schedule";
    /** The header holding a fired job's fire time (ISO-8601). */
    public static final String FIRE_TIME_HEADER = "fire_time";
    private static final String CATCH_UP_OPTION = "catch-up=";

    public Schedule {
        notNull(name, "schedule name");
        notNull(cadence, "schedule cadence");
        notNull(queue, "queue");
        notNull(payload, "payload");
        notNull(catchUp, "catch-up");
    }

    /**
     * A schedule as written in a schedules file: {@code when} is a cadence ({@link Cadence#parse}) with an optional
     * {@code catch-up=<policy>} ({@link CatchUp#parse}; {@code latest} when absent).
     *
     * @throws InvalidValueException saying which part is wrong
     */
    public static Schedule of(String name, String when, String queue, String payload) {
        notNull(when, "schedule");
        CatchUp catchUp = CatchUp.latest();
        List<String> cadence = new ArrayList<>();
        for (String token : when.trim().split("\\s+")) {
            if (token.startsWith(CATCH_UP_OPTION)) {
                catchUp = CatchUp.parse(token.substring(CATCH_UP_OPTION.length()));
            } else {
                cadence.add(token);
            }
        }
        return new Schedule(ScheduleName.of(name), Cadence.parse(String.join(" ", cadence)), QueueName.of(queue),
                payload, catchUp);
    }

    public Schedule withCatchUp(CatchUp policy) {
        return new Schedule(name, cadence, queue, payload, policy);
    }

    /** The job id of the fire at {@code fireTime}: {@code schedule:<name>:<ISO-8601 instant>}. */
    public JobId jobId(Instant fireTime) {
        return JobId.of("schedule:" + name + ":" + fireTime);
    }

    /** The job fired at {@code fireTime}: enqueued "at" its fire time, whichever scheduler enqueues it. */
    public Job jobAt(Instant fireTime) {
        return Job.create(jobId(fireTime), queue, payload, fireTime)
                .withHeaders(Map.of(SCHEDULE_HEADER, name.value(), FIRE_TIME_HEADER, fireTime.toString()));
    }

    /**
     * What a scheduler does at {@code now} when every fire time up to {@code settled} is settled: the fire times to
     * run (at most {@code max}, the rest wait for the next pass), or else how far to settle without running (fire
     * times the catch-up policy skips).
     */
    public FirePlan plan(Instant settled, Instant now, Duration grace, int max) {
        require(max > 0, "max must be positive");
        Instant keepFrom = catchUp.keepFrom(now, grace);
        Optional<Instant> lastMissed = Optional.empty();
        List<Instant> fire = new ArrayList<>();
        // one fire time at a time, never a list of them all: a schedule may have missed millions
        for (Optional<Instant> next = cadence.nextAfter(settled); next.isPresent() && !next.get().isAfter(now)
                && fire.size() < max; next = cadence.nextAfter(next.get())) {
            if (next.get().isBefore(keepFrom)) {
                lastMissed = next;
            } else {
                fire.add(next.get());
            }
        }
        if (fire.isEmpty() && lastMissed.isPresent()) {
            return catchUp.runsLatestMissed() ? new FirePlan(List.of(lastMissed.get()), Optional.empty())
                    : new FirePlan(List.of(), lastMissed);
        }
        return new FirePlan(fire, Optional.empty());
    }

    /** The next {@code count} fire times after {@code after}. */
    public List<Instant> nextFireTimes(Instant after, int count) {
        List<Instant> times = new ArrayList<>();
        for (Optional<Instant> next = cadence.nextAfter(after); next.isPresent() && times.size() < count;
             next = cadence.nextAfter(next.get())) {
            times.add(next.get());
        }
        return times;
    }

    /** The schedule as a schedules file writes it (without name, queue and payload). */
    public String when() {
        return cadence.text() + " " + CATCH_UP_OPTION + catchUp.text();
    }
}
