package dev.baton.application.port.in;

import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.QueueName;
import java.util.Objects;

/** Deletes dead letters for good. */
public interface PurgeDeadLettersUseCase {

    /** @return how many dead letters were deleted */
    int purge(Command command);

    record Command(QueueName queue, DeadLetterSelection selection) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(selection, "selection");
        }
    }
}
