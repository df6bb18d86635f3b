package dev.baton.application.port.in;

import dev.baton.domain.InvalidValueException;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import java.util.List;
import java.util.Objects;

/** The jobs of a queue waiting for their due time (retries and scheduled jobs), soonest first. */
public interface ListDelayedJobsUseCase {

    List<JobSighting.Delayed> listDelayed(Command command);

    record Command(QueueName queue, int limit) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            if (limit < 1 || limit > 1000) {
                throw new InvalidValueException("limit must be 1..1000, got " + limit);
            }
        }
    }
}
