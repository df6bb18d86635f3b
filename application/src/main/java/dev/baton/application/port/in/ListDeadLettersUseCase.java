package dev.baton.application.port.in;

import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Lists a queue's dead letters, oldest first, a page at a time, all of them or those a selection matches. */
public interface ListDeadLettersUseCase {

    List<StoredDeadLetter> list(Command command);

    /**
     * @param after     the id of the last dead letter of the previous page
     * @param selection which dead letters to list ({@link DeadLetterSelection.All} for every one)
     */
    record Command(QueueName queue, Optional<DeadLetterId> after, int limit, DeadLetterSelection selection) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(after, "after");
            Objects.requireNonNull(selection, "selection");
            if (limit < 1 || limit > 10_000) {
                throw new InvalidValueException("limit must be 1..10000, got " + limit);
            }
        }

        /** Every dead letter, a page after {@code after}. */
        public Command(QueueName queue, Optional<DeadLetterId> after, int limit) {
            this(queue, after, limit, new DeadLetterSelection.All());
        }
    }
}
