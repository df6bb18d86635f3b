package dev.baton.application.service.schedule;

import dev.baton.application.port.in.ListSchedulesUseCase;
import dev.baton.application.port.out.ScheduleFires;
import java.time.Clock;
import java.util.List;

/** Lists schedules with their next fire times (from now) and what the schedulers recorded of them. */
public final class ScheduleQueryService implements ListSchedulesUseCase {
    private final ScheduleFires fires;
    private final Clock clock;

    public ScheduleQueryService(ScheduleFires fires, Clock clock) {
        this.fires = fires;
        this.clock = clock;
    }

    @Override
    public List<ScheduleView> list(Command command) {
        return command.schedules().stream().map(schedule -> new ScheduleView(schedule,
                schedule.nextFireTimes(clock.instant(), command.count()), fires.state(schedule))).toList();
    }
}
