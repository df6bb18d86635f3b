package dev.baton.application.port.in;

import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The running totals of completed, retried and dead-lettered jobs of some queues, counted by every worker process;
 * read together, so that a dashboard can poll all queues every second for throughput.
 */
public interface ReadQueueTotalsUseCase {

    /** @return the totals of each queue of the command, in its order */
    Map<QueueName, QueueTotals> totals(Command command);

    record Command(List<QueueName> queues) {
        public Command {
            queues = List.copyOf(Objects.requireNonNull(queues, "queues"));
        }
    }
}
