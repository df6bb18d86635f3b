package dev.baton.application.port.out;

import dev.baton.domain.BatonException;

/** The transport could not do what was asked (server unreachable, timeout, protocol error). Safe to retry. */
public class TransportException extends BatonException {
    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }

    public TransportException(String message) {
        super(message);
    }
}
