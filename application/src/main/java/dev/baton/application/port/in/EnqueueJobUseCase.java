package dev.baton.application.port.in;

import dev.baton.domain.DueHorizon;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Puts one job on a queue: due now, at an instant, or after a delay. */
public interface EnqueueJobUseCase {

    /**
     * @return the job as enqueued (with its enqueued-at and, when delayed, its due time)
     * @throws InvalidValueException for a due time beyond {@link DueHorizon} (docs/OPERATIONS.md#due-times)
     */
    Job enqueue(Command command);

    /**
     * @param at    due at this instant (mutually exclusive with {@code delay}); at most {@link DueHorizon#MAX_AHEAD}
     *              after the enqueue
     * @param delay due after this delay from now (mutually exclusive with {@code at}); at most
     *              {@link DueHorizon#MAX_AHEAD}
     */
    record Command(QueueName queue, JobId id, Optional<String> type, String payload, Map<String, String> headers,
                   Optional<Instant> at, Optional<Duration> delay) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(id, "job id");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(payload, "payload");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(delay, "delay");
            headers = Map.copyOf(headers);
            if (at.isPresent() && delay.isPresent()) {
                throw new InvalidValueException("give a due time or a delay, not both");
            }
            delay.ifPresent(d -> {
                if (d.isNegative()) {
                    throw new InvalidValueException("delay must not be negative, got " + d);
                }
                DueHorizon.checkDelay("delay", d);
            });
        }

        /** A job due now with no type and no headers. */
        public static Command now(QueueName queue, JobId id, String payload) {
            return new Command(queue, id, Optional.empty(), payload, Map.of(), Optional.empty(), Optional.empty());
        }

        public Command withType(String type) {
            return new Command(queue, id, Optional.of(type), payload, headers, at, this.delay);
        }

        public Command after(Duration delay) {
            return new Command(queue, id, type, payload, headers, Optional.empty(), Optional.of(delay));
        }

        public Command at(Instant instant) {
            return new Command(queue, id, type, payload, headers, Optional.of(instant), Optional.empty());
        }

        /**
         * The job this command enqueues at {@code now}: a due time not after {@code now} makes it due at once.
         *
         * @throws InvalidValueException for a due time beyond {@link DueHorizon} from {@code now}
         */
        public Job toJob(Instant now) {
            Optional<Instant> due = at.map(instant -> DueHorizon.check(instant, now)).or(() -> delay.map(now::plus));
            return new Job(id, queue, type, payload, 0, now, due.filter(instant -> instant.isAfter(now)),
                    Optional.empty(), headers);
        }
    }
}
