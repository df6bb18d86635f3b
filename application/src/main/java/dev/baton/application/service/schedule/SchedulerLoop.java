package dev.baton.application.service.schedule;

import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.service.FailureStreak;
import dev.baton.domain.FirePlan;
import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleName;
import dev.baton.domain.ScheduleState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduler's pass over its schedules: for each, the fire times due since the recorded watermark are fired (or
 * skipped, as its catch-up policy says). A schedule seen for the first time starts now: it fires nothing from before
 * it existed. Many schedulers may pass at once: {@link ScheduleFires#fire} enqueues each fire time once, and the
 * scheduler whose fire enqueued it tells the observer.
 */
final class SchedulerLoop {
    /** Fires per schedule and pass: a long catch-up goes on in the next pass, never blocking the other schedules. */
    static final int MAX_FIRES_PER_PASS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerLoop.class);

    private final ScheduleFires fires;
    private final List<Schedule> schedules;
    private final Duration grace;
    private final Clock clock;
    private final JobObserver observer;
    /** Each schedule's failed passes in a row: one warning while Redis is down, not one per pass. */
    private final Map<ScheduleName, FailureStreak> failures = new HashMap<>();

    SchedulerLoop(ScheduleFires fires, List<Schedule> schedules, Duration grace, Clock clock, JobObserver observer) {
        this.fires = fires;
        this.schedules = List.copyOf(schedules);
        this.grace = grace;
        this.clock = clock;
        this.observer = observer;
        schedules.forEach(schedule -> failures.put(schedule.name(), new FailureStreak()));
    }

    /** What a pass did: the fire times this scheduler enqueued, and the schedules whose pass failed. */
    record Passed(int fired, int failed) {
    }

    /** One pass; one schedule's failure (a transport error) is logged and leaves the others to run. */
    Passed runOnce() {
        int fired = 0;
        int failed = 0;
        for (Schedule schedule : schedules) {
            FailureStreak streak = failures.get(schedule.name());
            try {
                fired += pass(schedule);
            } catch (RuntimeException e) {
                failed++;
                LOG.atLevel(streak.failed()).log("schedule pass failed, retrying at the next pass schedule={}: {}",
                        schedule.name(), e.toString());
                continue;
            }
            int failedBefore = streak.succeeded();
            if (failedBefore > 0) {
                LOG.info("schedule passes work again after {} failures schedule={}", failedBefore, schedule.name());
            }
        }
        return new Passed(fired, failed);
    }

    /** @return how many fire times this pass enqueued */
    private int pass(Schedule schedule) {
        Instant now = clock.instant();
        ScheduleState state = fires.state(schedule);
        if (state.settledThrough().isEmpty()) {
            fires.settle(schedule, now);
            LOG.info("schedule seen for the first time, firing from now on schedule={} next={}", schedule.name(),
                    schedule.nextFireTimes(now, 1));
            return 0;
        }
        int fired = 0;
        FirePlan plan = schedule.plan(state.settledThrough().get(), now, grace, MAX_FIRES_PER_PASS);
        for (Instant fireTime : plan.fire()) {
            if (fires.fire(schedule, fireTime)) {
                fired++;
                observer.jobEnqueued(schedule.jobAt(fireTime));
                LOG.debug("fired schedule={} fireTime={} job={}", schedule.name(), fireTime,
                        schedule.jobId(fireTime));
            }
        }
        plan.settleThrough().ifPresent(through -> {
            fires.settle(schedule, through);
            LOG.info("skipped missed fire times schedule={} through={} catchUp={}", schedule.name(), through,
                    schedule.catchUp().text());
        });
        return fired;
    }
}
