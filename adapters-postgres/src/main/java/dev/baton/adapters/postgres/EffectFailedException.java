package dev.baton.adapters.postgres;

import dev.baton.domain.BatonException;

/**
 * Inside the ledger: the handler's effect threw, or the transaction cannot commit it; everything it wrote is rolled
 * back. Leaves the ledger as {@code LedgerOutcome.EffectFailed} with this exception's cause.
 */
final class EffectFailedException extends BatonException {
    EffectFailedException(Throwable cause) {
        super("job effect failed and was rolled back: " + cause, cause);
    }
}
