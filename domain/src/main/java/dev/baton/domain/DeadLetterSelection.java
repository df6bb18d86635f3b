package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.util.List;

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
}
