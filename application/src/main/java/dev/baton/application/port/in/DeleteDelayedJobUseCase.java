package dev.baton.application.port.in;

import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Objects;

/**
 * Removes a delayed job (a retry, a scheduled or delayed job) without running it, and releases its uniqueness key.
 * The ledger records nothing: afterwards the job is unknown, as if never enqueued (a cancel keeps a record). A job
 * waiting, running or ended is left alone.
 */
public interface DeleteDelayedJobUseCase {

    DelayedJobChange delete(Command command);

    record Command(QueueName queue, JobId id) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "id");
        }
    }
}
