package dev.baton.application.port.in;

import dev.baton.domain.DeadLetterId;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.util.Objects;
import java.util.Optional;

/** Reads one dead letter whole, by its id: what a list shows cut (a large payload, a long error) in full. */
public interface ReadDeadLetterUseCase {

    /** @return the dead letter; empty when the queue holds none with this id */
    Optional<StoredDeadLetter> read(Command command);

    record Command(QueueName queue, DeadLetterId id) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "dead letter id");
        }
    }
}
