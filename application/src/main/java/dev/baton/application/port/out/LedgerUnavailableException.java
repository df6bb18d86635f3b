package dev.baton.application.port.out;

import dev.baton.domain.BatonException;

/**
 * The ledger could not do what was asked (connection lost, server down), or could not confirm a transaction (commit
 * outcome unknown). For a job it arrives as {@link LedgerOutcome.Unknown}: the job must not be acknowledged, and its
 * redelivery asks the ledger again, which then knows.
 */
public final class LedgerUnavailableException extends BatonException {
    public LedgerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
