package dev.baton.application.port.in;

import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Objects;

/**
 * Cancels a job: a waiting or delayed job never runs, a running one's handler sees {@code JobContext.cancelled()}
 * and is interrupted after the worker's cancel grace, its writes rolled back. With a ledger, the answer is the
 * ledger's: one atomic insert decides between the cancel and the job's commit, so a job is never both. See
 * docs/OPERATIONS.md for what at-least-once mode cannot promise.
 */
public interface CancelJobUseCase {

    Answer cancel(Command command);

    record Command(QueueName queue, JobId id) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "id");
        }
    }

    /** What became of the cancel. */
    enum Answer {
        /**
         * This call cancelled it: it will not run, or its running attempt ends without committing. Also the answer
         * for an id that was never enqueued: a job enqueued with it later is cancelled too.
         */
        CANCELLED,
        /** It was cancelled before. */
        ALREADY_CANCELLED,
        /** It completed first: its effect stays committed. */
        ALREADY_COMPLETED,
        /** It went to the dead letters first (and stays there; redriving it replays it). */
        ALREADY_DEAD,
        /** Its dead letter was purged first: it never runs again anyway. */
        ALREADY_PURGED;

        /** True when the job had reached a terminal outcome other than a cancel before this call. */
        public boolean isOtherwiseTerminal() {
            return this == ALREADY_COMPLETED || this == ALREADY_DEAD || this == ALREADY_PURGED;
        }
    }
}
