package dev.baton.application.port.in;

import dev.baton.domain.QueueName;
import java.util.Objects;

/**
 * Pauses a queue: every worker stops leasing from it within a second, running jobs finish, enqueues go on. The pause
 * is kept with the queue, so it outlives workers, until {@link ResumeQueueUseCase} lifts it.
 */
public interface PauseQueueUseCase {

    void pause(Command command);

    record Command(QueueName queue) {
        public Command {
            Objects.requireNonNull(queue, "queue");
        }
    }
}
