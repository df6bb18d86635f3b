package dev.baton.application.port.in;

import dev.baton.domain.DeadLetterId;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Lists a queue's dead letters, oldest first, a page at a time. */
public interface ListDeadLettersUseCase {

    List<StoredDeadLetter> list(Command command);

    /** @param after the id of the last dead letter of the previous page */
    record Command(QueueName queue, Optional<DeadLetterId> after, int limit) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(after, "after");
            if (limit < 1 || limit > 10_000) {
                throw new InvalidValueException("limit must be 1..10000, got " + limit);
            }
        }
    }
}
