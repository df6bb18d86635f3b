package dev.baton.application.port.in;

import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.QueueName;
import java.util.Objects;

/** Moves dead letters back to their queue with their attempts reset. */
public interface RedriveDeadLettersUseCase {

    /** @return how many dead letters moved */
    int redrive(Command command);

    record Command(QueueName queue, DeadLetterSelection selection) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(selection, "selection");
        }
    }
}
