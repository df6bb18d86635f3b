package dev.baton.bootstrap.admin;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Slows password guessing on the admin server, per user name and client address: after {@link #FREE_FAILURES} failed
 * logins in a row, that user is locked out for that client for 1 s, twice as long after each further failure, at most
 * {@link #MAX_LOCK}. While locked, even the right password is refused unchecked, so guessing runs at most one password
 * per lock. A lock always lapses: the attempts it refuses never extend it, and failures are forgotten after
 * {@link #FORGET_AFTER} without one, or at the next good login. Other clients and the other user are not locked.
 * Holds at most {@link #MAX_ENTRIES} entries, dropping the least recently used. See
 * docs/OPERATIONS.md#security-of-the-admin-server.
 */
final class LoginThrottle {
    static final int FREE_FAILURES = 5;
    static final Duration FIRST_LOCK = Duration.ofSeconds(1);
    static final Duration MAX_LOCK = Duration.ofMinutes(5);
    static final Duration FORGET_AFTER = Duration.ofMinutes(15);
    static final int MAX_ENTRIES = 10_000;

    private final Clock clock;
    private final Map<Key, Failures> failures = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Failures> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    /** Whom a login is of: the user name as the throttle counts it, and the client's address. */
    record Key(String user, String client) {
    }

    /** The failed logins in a row of one key, the last one's time and the lock it set, if any. */
    record Failures(int count, Instant last, Optional<Instant> lockedUntil) {
    }

    /** How much longer {@code key} is locked out; empty when it may try. */
    synchronized Optional<Duration> lockedFor(Key key) {
        Instant now = clock.instant();
        return current(key, now).flatMap(Failures::lockedUntil).filter(now::isBefore)
                .map(until -> Duration.between(now, until));
    }

    /** Counts a failed login of {@code key}: its failures in a row, with the lock it starts from now on, if any. */
    synchronized Failures failed(Key key) {
        Instant now = clock.instant();
        int count = current(key, now).map(Failures::count).orElse(0) + 1;
        Optional<Instant> lock = count < FREE_FAILURES ? Optional.empty() : Optional.of(now.plus(lock(count)));
        Failures counted = new Failures(count, now, lock);
        failures.put(key, counted);
        return counted;
    }

    /** A good login: {@code key}'s failures are forgotten. */
    synchronized void succeeded(Key key) {
        failures.remove(key);
    }

    /** 1 s after the {@link #FREE_FAILURES}th failure in a row, doubling with each further one, at most MAX_LOCK. */
    static Duration lock(int failuresInARow) {
        int doublings = Math.min(failuresInARow - FREE_FAILURES, 30); // 2^30 s is past any maximum
        Duration lock = FIRST_LOCK.multipliedBy(1L << doublings);
        return lock.compareTo(MAX_LOCK) > 0 ? MAX_LOCK : lock;
    }

    private Optional<Failures> current(Key key, Instant now) {
        Failures known = failures.get(key);
        if (known != null && !now.isBefore(known.last().plus(FORGET_AFTER))) {
            failures.remove(key);
            return Optional.empty();
        }
        return Optional.ofNullable(known);
    }
}
