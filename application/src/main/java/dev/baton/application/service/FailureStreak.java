package dev.baton.application.service;

import org.slf4j.event.Level;

/**
 * The failures in a row of one repeated task (a loop's passes, a relay's batches), for its log: the first of a streak
 * at WARN, the others at DEBUG, and the success that ends it at INFO. A server that is down for an hour so costs two
 * lines, not one per retry. Thread-safe.
 */
public final class FailureStreak {
    private int failures;

    /** Counts one more failure. @return the level to log it at: WARN for the first of a streak, DEBUG after */
    public synchronized Level failed() {
        return failures++ == 0 ? Level.WARN : Level.DEBUG;
    }

    /** Ends the streak, if there is one. @return how many failures it had: 0 when there was none */
    public synchronized int succeeded() {
        int had = failures;
        failures = 0;
        return had;
    }
}
