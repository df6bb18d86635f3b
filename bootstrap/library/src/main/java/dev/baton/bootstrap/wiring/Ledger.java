package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import java.util.Objects;

/** The execution ledger's ports, and how to bring its schema up to date. */
public record Ledger(ExecutionLedger executions, JobOutcomes outcomes, Migrator migrator) {
    public Ledger {
        Objects.requireNonNull(executions, "executions");
        Objects.requireNonNull(outcomes, "outcomes");
        Objects.requireNonNull(migrator, "migrator");
    }
}
