package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.AuditTrail;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import java.util.Objects;
import java.util.Optional;

/**
 * The execution ledger's ports, and how to bring its schema up to date. {@code audit} is the trail of admin changes;
 * without one the trail is the log alone.
 */
public record Ledger(ExecutionLedger executions, JobOutcomes outcomes, Optional<AuditTrail> audit,
                     Migrator migrator) {
    public Ledger {
        Objects.requireNonNull(executions, "executions");
        Objects.requireNonNull(outcomes, "outcomes");
        Objects.requireNonNull(audit, "audit");
        Objects.requireNonNull(migrator, "migrator");
    }

    /** A ledger that keeps no audit trail. */
    public Ledger(ExecutionLedger executions, JobOutcomes outcomes, Migrator migrator) {
        this(executions, outcomes, Optional.empty(), migrator);
    }
}
