package dev.baton.application.port.in;

import dev.baton.domain.InvalidValueException;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeCursor;
import dev.baton.domain.OutcomeQuery;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Searches a queue's terminal outcomes in the execution ledger, newest first, a page at a time. */
public interface SearchOutcomesUseCase {
    int MAX_LIMIT = 500;

    /** Empty pages without a ledger (at-least-once). */
    Page search(Command command);

    record Command(OutcomeQuery query, int limit) {
        public Command {
            Objects.requireNonNull(query, "query");
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new InvalidValueException("limit must be 1.." + MAX_LIMIT + ", got " + limit);
            }
        }
    }

    /** @param next the cursor of the page after this one; empty on the last page */
    record Page(List<JobOutcome> items, Optional<OutcomeCursor> next) {
        public Page {
            items = List.copyOf(Objects.requireNonNull(items, "items"));
            Objects.requireNonNull(next, "next");
        }
    }
}
