package dev.baton.application.port.out;

import dev.baton.domain.BatonException;

/**
 * The ledger could not run or could not confirm the transaction (connection lost, commit outcome unknown). The job
 * must not be acknowledged: its redelivery asks the ledger again, which then knows.
 */
public final class LedgerUnavailableException extends BatonException {
    public LedgerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
