package dev.baton.application.handler;

import dev.baton.domain.BatonException;

/** Thrown by a handler when trying again cannot help (bad payload, a business rule): the job is dead-lettered. */
public class NonRetryableException extends BatonException {
    public NonRetryableException(String message) {
        super(message);
    }

    public NonRetryableException(String message, Throwable cause) {
        super(message, cause);
    }
}
