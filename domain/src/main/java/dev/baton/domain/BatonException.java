package dev.baton.domain;

/** Root of every unchecked exception Baton throws: callers can catch Baton's failures in one place. */
public class BatonException extends RuntimeException {
    public BatonException(String message) {
        super(message);
    }

    public BatonException(String message, Throwable cause) {
        super(message, cause);
    }
}
