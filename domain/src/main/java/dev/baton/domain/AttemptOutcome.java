package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.time.Duration;
import java.util.Optional;

/** How one attempt ended. */
public sealed interface AttemptOutcome {

    /** The handler finished and its effect committed; {@code result} is the handler's optional result text. */
    record Succeeded(Optional<String> result) implements AttemptOutcome {
        public Succeeded {
            notNull(result, "result");
        }
    }

    /** The handler threw, or its effect could not commit. */
    record Failed(JobError error) implements AttemptOutcome {
        public Failed {
            notNull(error, "error");
        }
    }

    /** The handler ran past its deadline and was interrupted. */
    record TimedOut(Duration limit) implements AttemptOutcome {
        public TimedOut {
            notNull(limit, "time limit");
        }

        public JobError asError() {
            return JobError.retryable("timeout", "attempt exceeded its time limit of " + limit);
        }
    }

    /** The worker vanished or lost the job's lease before it finished. */
    record Abandoned(String reason) implements AttemptOutcome {
        public Abandoned {
            notNull(reason, "reason");
        }
    }
}
