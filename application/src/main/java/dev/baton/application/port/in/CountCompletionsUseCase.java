package dev.baton.application.port.in;

import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/** How many of a queue's jobs completed lately, by the execution ledger. */
public interface CountCompletionsUseCase {

    /** @return the completions within the window up to now; empty without a ledger (at-least-once) */
    OptionalLong countCompleted(Command command);

    record Command(QueueName queue, Duration window) {
        public Command {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(window, "window");
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("the window must be positive, got " + window);
            }
        }
    }
}
