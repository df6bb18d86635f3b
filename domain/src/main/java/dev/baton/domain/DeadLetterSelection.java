package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Which dead letters a redrive or purge acts on. */
public sealed interface DeadLetterSelection {

    boolean matches(StoredDeadLetter stored);

    /** Every dead letter of the queue. */
    record All() implements DeadLetterSelection {
        @Override
        public boolean matches(StoredDeadLetter stored) {
            return true;
        }
    }

    /** The dead letters with these ids. */
    record ByIds(List<DeadLetterId> ids) implements DeadLetterSelection {
        public ByIds {
            ids = List.copyOf(notNull(ids, "ids"));
            require(!ids.isEmpty(), "select at least one dead letter id");
        }

        @Override
        public boolean matches(StoredDeadLetter stored) {
            return ids.contains(stored.id());
        }
    }

    /** The dead letters that died for this reason. */
    record ByReason(DeadLetterReason reason) implements DeadLetterSelection {
        public ByReason {
            notNull(reason, "reason");
        }

        @Override
        public boolean matches(StoredDeadLetter stored) {
            return stored.letter().reason() == reason;
        }
    }

    /**
     * The dead letters matching every criterion given: died for {@code reason}, with an error of {@code errorType},
     * at or after {@code from} and before {@code to}. With none given it selects every dead letter, as {@link All}.
     */
    record ByFilter(Optional<DeadLetterReason> reason, Optional<String> errorType, Optional<Instant> from,
                    Optional<Instant> to) implements DeadLetterSelection {
        public ByFilter {
            notNull(reason, "reason");
            notNull(errorType, "error type");
            notNull(from, "from");
            notNull(to, "to");
            require(from.isEmpty() || to.isEmpty() || from.get().isBefore(to.get()), "from must be before to");
        }

        @Override
        public boolean matches(StoredDeadLetter stored) {
            DeadLetter letter = stored.letter();
            return reason.map(r -> letter.reason() == r).orElse(true)
                    && errorType.map(type -> letter.lastError().type().equals(type)).orElse(true)
                    && from.map(start -> !letter.deadAt().isBefore(start)).orElse(true)
                    && to.map(end -> letter.deadAt().isBefore(end)).orElse(true);
        }
    }
}
