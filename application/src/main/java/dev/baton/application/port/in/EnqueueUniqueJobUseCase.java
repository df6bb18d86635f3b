package dev.baton.application.port.in;

import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.Uniqueness;
import java.util.Objects;

/**
 * Puts one job on a queue unless a job holding its uniqueness key is waiting, delayed or running there (or completed
 * within the key's period): the check and the enqueue are one atomic step. See docs/HANDLERS.md#unique-jobs.
 */
public interface EnqueueUniqueJobUseCase {

    Outcome enqueueUnique(Command command);

    record Command(EnqueueJobUseCase.Command job, Uniqueness uniqueness) {
        public Command {
            Objects.requireNonNull(job, "job");
            Objects.requireNonNull(uniqueness, "uniqueness");
        }
    }

    /** What an enqueue with a uniqueness key did; either way {@link #jobId()} names the job that holds the key. */
    sealed interface Outcome {
        JobId jobId();

        /** The job was enqueued and holds the key. */
        record Enqueued(Job job) implements Outcome {
            public Enqueued {
                Objects.requireNonNull(job, "job");
            }

            @Override
            public JobId jobId() {
                return job.id();
            }
        }

        /** Nothing was enqueued: the job {@code jobId} holds the key. */
        record AlreadyHeld(JobId jobId) implements Outcome {
            public AlreadyHeld {
                Objects.requireNonNull(jobId, "job id");
            }
        }
    }
}
