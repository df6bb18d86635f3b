package dev.baton.application.port.in;

import dev.baton.domain.AuditRecord;
import dev.baton.domain.InvalidValueException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Reads the audit trail of admin changes, newest first, a page at a time. */
public interface ReadAuditTrailUseCase {
    int MAX_LIMIT = 500;

    /** An empty page, not {@link Page#recorded()}, without a ledger (at-least-once): the trail is the log alone. */
    Page read(Command command);

    /** @param before the cursor of the page: the id of the last entry of the page before, if any */
    record Command(Optional<Long> before, int limit) {
        public Command {
            Objects.requireNonNull(before, "before");
            if (before.isPresent() && before.get() < 1) {
                throw new InvalidValueException("before must be a positive entry id, got " + before.get());
            }
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new InvalidValueException("limit must be 1.." + MAX_LIMIT + ", got " + limit);
            }
        }
    }

    /**
     * @param recorded false without a ledger: nothing was ever kept
     * @param next     the cursor of the page after this one; empty on the last page
     */
    record Page(boolean recorded, List<AuditRecord> items, Optional<Long> next) {
        public Page {
            items = List.copyOf(Objects.requireNonNull(items, "items"));
            Objects.requireNonNull(next, "next");
        }
    }
}
