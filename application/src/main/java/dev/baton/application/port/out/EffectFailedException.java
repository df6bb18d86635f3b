package dev.baton.application.port.out;

import dev.baton.domain.BatonException;

/** The handler's effect threw; the ledger rolled back everything it wrote. The cause is the handler's exception. */
public final class EffectFailedException extends BatonException {
    public EffectFailedException(Throwable cause) {
        super("job effect failed and was rolled back: " + cause, cause);
    }
}
