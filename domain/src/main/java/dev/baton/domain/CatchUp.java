package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;
import java.time.Instant;

/**
 * What a schedule does with fire times missed while no scheduler ran. A fire time no older than the scheduler's grace
 * is never missed (a slow pass, a worker restart): it always runs. Older ones are {@code skip}ped, collapse into the
 * {@code latest} one (run once, unless a fresh one runs anyway), or run {@code all-within:<window>} when younger than
 * the window.
 */
public sealed interface CatchUp {

    /** Fire times before this instant were missed; those at or after it run. */
    Instant keepFrom(Instant now, Duration grace);

    /** True when the latest missed fire time runs once if no fresher one runs. */
    default boolean runsLatestMissed() {
        return false;
    }

    /** How the policy is written, as {@link #parse} reads it. */
    String text();

    static CatchUp skip() {
        return new Skip();
    }

    static CatchUp latest() {
        return new Latest();
    }

    static CatchUp allWithin(Duration window) {
        return new AllWithin(window);
    }

    /** {@code skip}, {@code latest} or {@code all-within:<duration>}, e.g. {@code all-within:6h}. */
    static CatchUp parse(String text) {
        notNull(text, "catch-up");
        if (text.equals("skip")) {
            return skip();
        }
        if (text.equals("latest")) {
            return latest();
        }
        if (text.startsWith("all-within:")) {
            try {
                return allWithin(HumanDuration.parse(text.substring("all-within:".length())));
            } catch (IllegalArgumentException e) {
                throw new InvalidValueException("catch-up '" + text + "': " + e.getMessage());
            }
        }
        throw new InvalidValueException("catch-up '" + text + "' must be skip, latest or all-within:<duration>");
    }

    record Skip() implements CatchUp {
        @Override
        public Instant keepFrom(Instant now, Duration grace) {
            return now.minus(grace);
        }

        @Override
        public String text() {
            return "skip";
        }
    }

    record Latest() implements CatchUp {
        @Override
        public Instant keepFrom(Instant now, Duration grace) {
            return now.minus(grace);
        }

        @Override
        public boolean runsLatestMissed() {
            return true;
        }

        @Override
        public String text() {
            return "latest";
        }
    }

    record AllWithin(Duration window) implements CatchUp {
        public AllWithin {
            notNull(window, "catch-up window");
            require(!window.isNegative() && !window.isZero(), "a catch-up window must be positive");
        }

        @Override
        public Instant keepFrom(Instant now, Duration grace) {
            return now.minus(window.compareTo(grace) > 0 ? window : grace);
        }

        @Override
        public String text() {
            return "all-within:" + HumanDuration.format(window);
        }
    }
}
