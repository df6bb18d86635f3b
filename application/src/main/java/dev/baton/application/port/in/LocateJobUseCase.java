package dev.baton.application.port.in;

import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import java.util.Objects;

/** Tells where a job is now: completed, in the transport (waiting, pending, delayed, dead), or unknown. */
public interface LocateJobUseCase {

    Whereabouts locate(Command command);

    record Command(QueueName queue, JobId id) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "job id");
        }
    }

    sealed interface Whereabouts {
        record Completed(Completion completion) implements Whereabouts {
        }

        record InTransport(JobSighting sighting) implements Whereabouts {
        }

        record Unknown() implements Whereabouts {
        }
    }
}
