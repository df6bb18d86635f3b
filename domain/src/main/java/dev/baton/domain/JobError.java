package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

/**
 * Why an attempt failed: the error's type (an exception class name or a short code), its message, and whether
 * trying again can help.
 */
public record JobError(String type, String message, boolean retryable) {
    public static final int MAX_MESSAGE_LENGTH = 2000;

    public JobError {
        notNull(type, "error type");
        message = Text.abbreviate(message == null ? "" : message, MAX_MESSAGE_LENGTH);
    }

    public static JobError retryable(String type, String message) {
        return new JobError(type, message, true);
    }

    public static JobError permanent(String type, String message) {
        return new JobError(type, message, false);
    }

    /** An error from a thrown exception; {@code retryable} is the handler's classification. */
    public static JobError of(Throwable failure, boolean retryable) {
        return new JobError(failure.getClass().getName(), String.valueOf(failure.getMessage()), retryable);
    }

    public JobError asPermanent() {
        return retryable ? new JobError(type, message, false) : this;
    }
}
