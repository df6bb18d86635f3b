package dev.baton.application.testing;

import dev.baton.application.port.out.AuditTrail;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.AuditRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The audit trail in memory, for scenario tests: what {@code PostgresAuditTrail} keeps, in a list. */
public final class InMemoryAuditTrail implements AuditTrail {
    private final List<AuditRecord> records = new ArrayList<>();
    private long lastId;

    @Override
    public synchronized void record(AuditEntry entry) {
        records.add(new AuditRecord(++lastId, Objects.requireNonNull(entry, "entry")));
    }

    @Override
    public synchronized List<AuditRecord> recent(Optional<Long> before, int limit) {
        return records.stream()
                .filter(kept -> before.map(id -> kept.id() < id).orElse(true))
                .sorted(Comparator.comparingLong(AuditRecord::id).reversed())
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized long forgetBefore(Instant cutoff) {
        int before = records.size();
        records.removeIf(kept -> kept.entry().at().isBefore(cutoff));
        return before - records.size();
    }
}
