package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a schedule does with fire times missed while no scheduler ran. A fire time no older than the scheduler's grace
 * is never missed (a slow pass, a worker restart): it always runs. Older ones are {@code skip}ped, collapse into the
 * {@code latest} one (run once, unless a fresh one runs anyway), or run {@code all-within:<window>} when younger than
 * the window.
 */
public sealed interface CatchUp {

    /** The fire times to run, of the {@code due} ones (ascending, none after {@code now}); the rest are skipped. */
    List<Instant> select(List<Instant> due, Instant now, Duration grace);

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

    private static List<Instant> since(List<Instant> due, Instant oldest) {
        return due.stream().filter(time -> !time.isBefore(oldest)).toList();
    }

    record Skip() implements CatchUp {
        @Override
        public List<Instant> select(List<Instant> due, Instant now, Duration grace) {
            return since(due, now.minus(grace));
        }

        @Override
        public String text() {
            return "skip";
        }
    }

    record Latest() implements CatchUp {
        @Override
        public List<Instant> select(List<Instant> due, Instant now, Duration grace) {
            List<Instant> fresh = since(due, now.minus(grace));
            return fresh.isEmpty() && !due.isEmpty() ? List.of(due.get(due.size() - 1)) : fresh;
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
        public List<Instant> select(List<Instant> due, Instant now, Duration grace) {
            return since(due, now.minus(window.compareTo(grace) > 0 ? window : grace));
        }

        @Override
        public String text() {
            return "all-within:" + HumanDuration.format(window);
        }
    }
}
