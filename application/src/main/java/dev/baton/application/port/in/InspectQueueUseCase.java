package dev.baton.application.port.in;

import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/** The numbers of one queue, from the transport and (when there is one) the ledger. */
public interface InspectQueueUseCase {

    QueueReport inspect(Command command);

    record Command(QueueName queue) {
        public Command {
            Objects.requireNonNull(queue, "queue");
        }
    }

    /**
     * @param completed    completions in the ledger; empty when running without one
     * @param deadByReason the jobs dead in the ledger, by reason (reasons with none left out); empty without one
     */
    record QueueReport(QueueStats stats, OptionalLong completed, Map<DeadLetterReason, Long> deadByReason) {
        public QueueReport {
            Objects.requireNonNull(stats, "stats");
            Objects.requireNonNull(completed, "completed");
            deadByReason = Map.copyOf(Objects.requireNonNull(deadByReason, "dead by reason"));
        }
    }
}
