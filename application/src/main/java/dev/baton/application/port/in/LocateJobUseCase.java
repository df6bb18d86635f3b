package dev.baton.application.port.in;

import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import java.util.Objects;
import java.util.Optional;

/**
 * Tells where a job is now: completed, dead-lettered (dead, replayed or purged) in the ledger, in the transport
 * (waiting, pending, delayed, dead), or unknown. The ledger's word comes first: the transport may have lost or rolled
 * back what it held.
 */
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

        /** The ledger's record of a dead letter ({@code outcome}: dead, replayed or purged), and where it is now. */
        record DeadLettered(JobOutcome outcome, Optional<JobSighting> sighting) implements Whereabouts {
            public DeadLettered {
                Objects.requireNonNull(outcome, "outcome");
                Objects.requireNonNull(sighting, "sighting");
            }
        }

        record InTransport(JobSighting sighting) implements Whereabouts {
        }

        record Unknown() implements Whereabouts {
        }
    }
}
