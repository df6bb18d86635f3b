package dev.baton.application.port.in;

import dev.baton.domain.QueueName;
import java.util.Objects;

/** Removes a queue's acknowledged history beyond the retention, never pending or undelivered work. */
public interface TrimQueueUseCase {

    /** @return entries removed, and whether pending work held the trim back */
    TrimReport trim(Command command);

    record Command(QueueName queue) {
        public Command {
            Objects.requireNonNull(queue, "queue");
        }
    }

    record TrimReport(long removed, boolean heldBack) {
    }
}
