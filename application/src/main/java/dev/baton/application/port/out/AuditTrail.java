package dev.baton.application.port.out;

import dev.baton.domain.AuditEntry;
import dev.baton.domain.AuditRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The ledger's record of the changes operators asked of the admin server, newest first. Bounded: entries older than
 * its retention are forgotten ({@link #forgetBefore}). Implementations report their own failure as
 * {@link LedgerUnavailableException}.
 */
public interface AuditTrail {

    /** Keeps {@code entry} under the next id. */
    void record(AuditEntry entry);

    /**
     * Up to {@code limit} entries, newest (highest id) first: all of them, or those recorded before the one with id
     * {@code before}.
     */
    List<AuditRecord> recent(Optional<Long> before, int limit);

    /** Forgets the entries of changes made before {@code cutoff}. @return how many */
    long forgetBefore(Instant cutoff);
}
