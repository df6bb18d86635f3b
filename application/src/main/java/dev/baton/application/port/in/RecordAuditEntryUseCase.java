package dev.baton.application.port.in;

import dev.baton.domain.AuditEntry;
import java.util.Objects;

/**
 * Keeps a change asked of the admin server in the audit trail. Never fails the change: an entry that cannot be
 * written is logged as not written, and without a ledger (at-least-once) the trail is the log alone.
 */
public interface RecordAuditEntryUseCase {

    void record(Command command);

    record Command(AuditEntry entry) {
        public Command {
            Objects.requireNonNull(entry, "entry");
        }
    }
}
