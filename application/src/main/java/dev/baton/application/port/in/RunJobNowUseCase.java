package dev.baton.application.port.in;

import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Objects;

/**
 * Makes a delayed job (a retry, a scheduled or delayed job) due now: the workers' promotion moves it into the stream
 * on its next pass and a worker runs it as any other. A job waiting, running or ended is left alone.
 */
public interface RunJobNowUseCase {

    DelayedJobChange runNow(Command command);

    record Command(QueueName queue, JobId id) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "id");
        }
    }
}
