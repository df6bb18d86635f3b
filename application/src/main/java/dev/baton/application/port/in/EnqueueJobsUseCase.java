package dev.baton.application.port.in;

import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import java.util.List;

/** Puts many jobs on their queues in as few round trips as the transport allows. */
public interface EnqueueJobsUseCase {

    /** @return the jobs as enqueued, in the order given */
    List<Job> enqueueAll(Command command);

    record Command(List<EnqueueJobUseCase.Command> jobs) {
        public Command {
            jobs = List.copyOf(jobs);
            if (jobs.isEmpty()) {
                throw new InvalidValueException("a bulk enqueue needs at least one job");
            }
        }
    }
}
