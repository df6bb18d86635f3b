package dev.baton.bootstrap.local;

import dev.baton.domain.BatonException;

/** A throwaway server for {@code baton dev} could not be started; the message says what was tried. */
public final class LocalServerException extends BatonException {
    public LocalServerException(String message) {
        super(message);
    }

    public LocalServerException(String message, Throwable cause) {
        super(message, cause);
    }
}
