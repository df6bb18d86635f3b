package dev.baton.application.port.out;

import dev.baton.domain.Completion;
import java.util.Objects;

/** What the execution ledger did with one job. */
public sealed interface LedgerOutcome {

    Completion completion();

    /** The effect ran and committed together with {@code completion}. */
    record Committed(Completion completion) implements LedgerOutcome {
        public Committed {
            Objects.requireNonNull(completion, "completion");
        }
    }

    /** The job had already completed: the effect did not run again (a redelivery), or its writes rolled back. */
    record AlreadyCompleted(Completion completion) implements LedgerOutcome {
        public AlreadyCompleted {
            Objects.requireNonNull(completion, "completion");
        }
    }
}
