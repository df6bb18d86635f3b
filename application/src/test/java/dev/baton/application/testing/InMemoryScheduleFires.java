package dev.baton.application.testing;

import dev.baton.application.port.out.ScheduleFires;
import dev.baton.domain.QueueName;
import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleName;
import dev.baton.domain.ScheduleState;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Schedule watermarks in memory, next to the in-memory transport they publish into. The transport's monitor guards
 * both, so a fire is one atomic step, as the Redis script makes it.
 */
public final class InMemoryScheduleFires implements ScheduleFires {
    private final InMemoryStreamTransport transport;
    private final Map<Key, ScheduleState> states = new HashMap<>();

    public InMemoryScheduleFires(InMemoryStreamTransport transport) {
        this.transport = transport;
    }

    /** A schedule's state is kept per queue, as Redis keeps it with the queue's keys. */
    private record Key(QueueName queue, ScheduleName name) {
        static Key of(Schedule schedule) {
            return new Key(schedule.queue(), schedule.name());
        }
    }

    @Override
    public ScheduleState state(Schedule schedule) {
        synchronized (transport) {
            return states.getOrDefault(Key.of(schedule), ScheduleState.NEVER_SEEN);
        }
    }

    @Override
    public boolean fire(Schedule schedule, Instant fireTime) {
        synchronized (transport) {
            ScheduleState state = state(schedule);
            if (settled(state, fireTime)) {
                return false;
            }
            transport.publish(schedule.jobAt(fireTime));
            states.put(Key.of(schedule), new ScheduleState(Optional.of(fireTime), Optional.of(fireTime)));
            return true;
        }
    }

    @Override
    public void settle(Schedule schedule, Instant through) {
        synchronized (transport) {
            ScheduleState state = state(schedule);
            if (!settled(state, through)) {
                states.put(Key.of(schedule), new ScheduleState(Optional.of(through), state.lastFire()));
            }
        }
    }

    private static boolean settled(ScheduleState state, Instant time) {
        return state.settledThrough().filter(through -> !through.isBefore(time)).isPresent();
    }
}
