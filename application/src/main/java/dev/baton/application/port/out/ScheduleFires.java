package dev.baton.application.port.out;

import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleState;
import java.time.Instant;

/**
 * Where schedulers record the fire times they settled and enqueue the jobs of those they fire. A schedule's state is
 * a watermark: every fire time up to it is settled (fired or skipped), and it never moves back. Firing enqueues the
 * fire time's job and moves the watermark to it in one atomic step, refused when the watermark is already there or
 * beyond: however many schedulers fire the same time at once, its job is enqueued once. Implementations translate
 * their client's exceptions into {@link TransportException}.
 */
public interface ScheduleFires {

    /** What is recorded of {@code schedule}: nothing yet, before any scheduler saw it. */
    ScheduleState state(Schedule schedule);

    /**
     * Enqueues {@code schedule.jobAt(fireTime)} (due now) and settles every fire time up to {@code fireTime}, unless
     * one at or after it is already settled.
     *
     * @return true when this call enqueued the job, false when the fire time was already settled
     */
    boolean fire(Schedule schedule, Instant fireTime);

    /** Settles every fire time up to {@code through} without enqueuing any; a watermark already beyond stays. */
    void settle(Schedule schedule, Instant through);
}
