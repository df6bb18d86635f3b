package dev.baton.application.port.in;

import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleState;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Shows schedules as the schedulers see them: their next fire times and their last fire. */
public interface ListSchedulesUseCase {

    List<ScheduleView> list(Command command);

    /** @param count how many next fire times to show per schedule */
    record Command(List<Schedule> schedules, int count) {
        public Command {
            schedules = List.copyOf(Objects.requireNonNull(schedules, "schedules"));
            if (count < 1 || count > 100) {
                throw new IllegalArgumentException("count must be in 1..100, got " + count);
            }
        }
    }

    record ScheduleView(Schedule schedule, List<Instant> nextFires, ScheduleState state) {
        public ScheduleView {
            Objects.requireNonNull(schedule, "schedule");
            nextFires = List.copyOf(nextFires);
            Objects.requireNonNull(state, "state");
        }
    }
}
