package dev.baton.application.port.in;

import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleName;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Starts a scheduler: it enqueues the job of each fire time of its schedules. Any number may run at once (one per
 * worker): each fire time's job is enqueued once whichever runs first, and none is lost while one of them runs.
 */
public interface RunSchedulerUseCase {

    RunningScheduler start(Command command);

    /**
     * @param schedules what to fire, names unique
     * @param interval  how often the scheduler looks for due fire times (a fire runs at most this late)
     * @param grace     a fire time younger than this is never missed, whatever the catch-up policy
     */
    record Command(List<Schedule> schedules, Duration interval, Duration grace) {
        public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(250);
        public static final Duration DEFAULT_GRACE = Duration.ofMinutes(1);

        public Command {
            schedules = List.copyOf(Objects.requireNonNull(schedules, "schedules"));
            Objects.requireNonNull(interval, "interval");
            Objects.requireNonNull(grace, "grace");
            if (interval.isNegative() || interval.isZero() || grace.isNegative()) {
                throw new IllegalArgumentException("the interval must be positive and the grace not negative");
            }
            long names = schedules.stream().map(Schedule::name).map(ScheduleName::value).distinct().count();
            if (names != schedules.size()) {
                throw new IllegalArgumentException("two schedules share a name: " + schedules.stream()
                        .map(Schedule::name).toList());
            }
        }

        public static Command of(List<Schedule> schedules) {
            return new Command(schedules, DEFAULT_INTERVAL, DEFAULT_GRACE);
        }
    }

    /** A running scheduler. */
    interface RunningScheduler extends AutoCloseable {
        /** Stops looking for fire times; a pass under way finishes. */
        @Override
        void close();
    }
}
