package dev.baton.application.service;

import dev.baton.application.port.in.ReadAuditTrailUseCase;
import dev.baton.application.port.in.RecordAuditEntryUseCase;
import dev.baton.application.port.out.AuditTrail;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.AuditRecord;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail of admin changes, kept in the ledger when there is one. Recording never fails the change it
 * records: a ledger that cannot take the entry costs a warning, and the change's own log line stands.
 */
public final class AuditService implements RecordAuditEntryUseCase, ReadAuditTrailUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(AuditService.class);

    private final Optional<AuditTrail> trail;

    /** @param trail the ledger's audit trail; empty without a ledger (at-least-once) */
    public AuditService(Optional<AuditTrail> trail) {
        this.trail = trail;
    }

    @Override
    public void record(RecordAuditEntryUseCase.Command command) {
        trail.ifPresent(kept -> {
            AuditEntry entry = command.entry();
            try {
                kept.record(entry);
            } catch (LedgerUnavailableException e) {
                LOG.warn("audit entry not written user={} client={} request={} {} status={}: {}",
                        entry.user().orElse("(none)"), entry.client(), entry.method(), LogText.escaped(entry.path()),
                        entry.status(), LogText.escaped(e.getMessage()));
            }
        });
    }

    /** Asks for one entry more than the page holds: its presence says there is a next page. */
    @Override
    public Page read(ReadAuditTrailUseCase.Command command) {
        if (trail.isEmpty()) {
            return new Page(false, List.of(), Optional.empty());
        }
        int limit = command.limit();
        List<AuditRecord> found = trail.get().recent(command.before(), limit + 1);
        if (found.size() <= limit) {
            return new Page(true, found, Optional.empty());
        }
        List<AuditRecord> page = found.subList(0, limit);
        return new Page(true, page, Optional.of(page.get(page.size() - 1).id()));
    }
}
