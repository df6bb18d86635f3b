package dev.baton.application.service.worker;

/**
 * How long to wait after a failure before trying again: 100 ms, doubling with every failure in a row up to 5 s, back
 * to 100 ms after a success. A server that is down is not hammered, and one that is back is used at once.
 */
final class FailureBackoff {
    static final long FIRST_MILLIS = 100;
    static final long MAX_MILLIS = 5_000;

    private long next = FIRST_MILLIS;

    /** The wait now; the one after it is twice as long. */
    long next() {
        long now = next;
        next = Math.min(next * 2, MAX_MILLIS);
        return now;
    }

    void reset() {
        next = FIRST_MILLIS;
    }
}
