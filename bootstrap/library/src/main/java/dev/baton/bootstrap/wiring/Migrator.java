package dev.baton.bootstrap.wiring;

/** Brings the ledger's schema up to date ({@code baton migrate}); a no-op without a ledger. */
@FunctionalInterface
public interface Migrator {
    void migrate();
}
