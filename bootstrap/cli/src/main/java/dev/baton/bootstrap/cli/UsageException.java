package dev.baton.bootstrap.cli;

import dev.baton.domain.BatonException;

/** The command line asks for something impossible (exit 2), e.g. an unknown handler or a bad JSON line. */
final class UsageException extends BatonException {
    UsageException(String message) {
        super(message);
    }
}
