package dev.baton.application.service;

import dev.baton.application.port.in.DelayedJobChange;
import dev.baton.application.port.in.DeleteDelayedJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.RunJobNowUseCase;
import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs delayed jobs now or deletes them: one atomic transport change each. When the transport holds no such delayed
 * job, the answer says where the job is instead, looked up after the change failed, so that it is never staler than
 * the change.
 */
public final class DelayedJobService implements RunJobNowUseCase, DeleteDelayedJobUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(DelayedJobService.class);

    private final DelayedJobActions queues;
    private final LocateJobUseCase locate;
    private final Clock clock;

    public DelayedJobService(DelayedJobActions queues, LocateJobUseCase locate, Clock clock) {
        this.queues = queues;
        this.locate = locate;
        this.clock = clock;
    }

    @Override
    public DelayedJobChange runNow(RunJobNowUseCase.Command command) {
        boolean changed = queues.makeDue(command.queue(), command.id(), clock.instant());
        return answer("run now", changed, command.queue(), command.id());
    }

    @Override
    public DelayedJobChange delete(DeleteDelayedJobUseCase.Command command) {
        boolean changed = queues.removeDelayed(command.queue(), command.id());
        return answer("delete", changed, command.queue(), command.id());
    }

    private DelayedJobChange answer(String action, boolean changed, QueueName queue, JobId id) {
        if (!changed) {
            return new DelayedJobChange.NotDelayed(locate.locate(new LocateJobUseCase.Command(queue, id)));
        }
        LOG.info("{} of delayed job done queue={} job={}", action, queue, LogText.escaped(id.value()));
        return new DelayedJobChange.Changed();
    }
}
