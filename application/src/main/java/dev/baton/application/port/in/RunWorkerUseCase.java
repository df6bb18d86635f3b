package dev.baton.application.port.in;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Starts a worker that consumes queues until it is stopped. */
public interface RunWorkerUseCase {

    RunningWorker start(Command command);

    /**
     * @param queues      the queues to consume
     * @param consumer    the worker's consumer name in each queue's group (stable across restarts, so it resumes
     *                    its own pending entries)
     * @param concurrency how many jobs run at once; also the most the worker ever leases
     * @param handler     the handler for jobs without a type; when empty, the handler named like the queue
     */
    record Command(List<QueueName> queues, ConsumerName consumer, int concurrency, Optional<String> handler) {
        public Command {
            queues = List.copyOf(queues);
            Objects.requireNonNull(consumer, "consumer");
            Objects.requireNonNull(handler, "handler");
            if (queues.isEmpty()) {
                throw new InvalidValueException("a worker needs at least one queue");
            }
            if (queues.size() != new HashSet<>(queues).size()) {
                throw new InvalidValueException("queues must be distinct: " + queues);
            }
            if (concurrency < 1 || concurrency > 10_000) {
                throw new InvalidValueException("concurrency must be 1..10000, got " + concurrency);
            }
        }
    }
}
