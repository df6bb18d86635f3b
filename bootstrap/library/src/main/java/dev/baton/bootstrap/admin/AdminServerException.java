package dev.baton.bootstrap.admin;

import dev.baton.domain.BatonException;

/** The admin HTTP server could not start (address in use, bad host). */
public final class AdminServerException extends BatonException {
    public AdminServerException(String message, Throwable cause) {
        super(message, cause);
    }
}
