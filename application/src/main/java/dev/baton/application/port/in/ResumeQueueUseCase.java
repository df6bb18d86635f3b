package dev.baton.application.port.in;

import dev.baton.domain.QueueName;
import java.util.Objects;

/** Resumes a paused queue: workers lease from it again within a second. A queue that is not paused stays as it is. */
public interface ResumeQueueUseCase {

    void resume(Command command);

    record Command(QueueName queue) {
        public Command {
            Objects.requireNonNull(queue, "queue");
        }
    }
}
