package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

/**
 * An {@link AuditEntry} as the trail keeps it, under an id that grows with each entry recorded: the cursor of the
 * trail's pages, newest (highest) first.
 */
public record AuditRecord(long id, AuditEntry entry) {
    public AuditRecord {
        require(id > 0, "an audit record's id is positive, got " + id);
        notNull(entry, "entry");
    }
}
