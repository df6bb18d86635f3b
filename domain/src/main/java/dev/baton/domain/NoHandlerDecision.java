package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;

/** What happens to a job that no handler of the worker that leased it takes. */
public sealed interface NoHandlerDecision {

    /** Wait for a worker that has its handler: {@code waiting} is the job as it waits, due at its not-before. */
    record Release(Job waiting) implements NoHandlerDecision {
        public Release {
            notNull(waiting, "waiting job");
            require(waiting.notBefore().isPresent(), "a released job must have a due time");
        }
    }

    /**
     * The grace has passed: dead-letter {@code job} as {@link DeadLetterReason#NO_HANDLER}, {@code waited} after a
     * worker first found no handler for it.
     */
    record DeadLetterNow(Job job, Duration waited) implements NoHandlerDecision {
        public DeadLetterNow {
            notNull(job, "job");
            notNull(waited, "waited");
        }
    }
}
