package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * When a schedule fires: a cron expression in a time zone ({@code TZ=Europe/Berlin 0 2 * * *}; UTC without
 * {@code TZ=}), or a fixed interval ({@code every 10s}). Fire times depend on nothing but the cadence, so every
 * scheduler computes the same ones.
 */
public sealed interface Cadence {

    /** The first fire time strictly after {@code after}; empty when there is none (an impossible date). */
    Optional<Instant> nextAfter(Instant after);

    /** How the cadence is written, as {@link #parse} reads it. */
    String text();

    /** @throws InvalidValueException saying what is wrong */
    static Cadence parse(String text) {
        notNull(text, "schedule");
        String trimmed = text.trim();
        if (trimmed.startsWith("every ")) {
            return Every.of(trimmed.substring("every ".length()).trim());
        }
        if (trimmed.startsWith("TZ=")) {
            int space = trimmed.indexOf(' ');
            String zone = space < 0 ? trimmed.substring(3) : trimmed.substring(3, space);
            return new Cron(CronExpression.parse(space < 0 ? "" : trimmed.substring(space + 1)), zone(zone));
        }
        return new Cron(CronExpression.parse(trimmed), ZoneOffset.UTC);
    }

    private static ZoneId zone(String zone) {
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new InvalidValueException("unknown time zone '" + zone + "' (use a region such as Europe/Berlin)");
        }
    }

    /** A cron expression read in {@code zone}. */
    record Cron(CronExpression expression, ZoneId zone) implements Cadence {
        public Cron {
            notNull(expression, "cron expression");
            notNull(zone, "time zone");
        }

        @Override
        public Optional<Instant> nextAfter(Instant after) {
            return expression.next(after.atZone(zone), zone).map(time -> time.toInstant());
        }

        @Override
        public String text() {
            return zone.equals(ZoneOffset.UTC) ? expression.text() : "TZ=" + zone.getId() + " " + expression.text();
        }
    }

    /**
     * Every {@code interval}, at the multiples of it since the epoch: {@code every 10s} fires at :00, :10, :20, on
     * every worker alike, however they started.
     */
    record Every(Duration interval) implements Cadence {
        public Every {
            notNull(interval, "interval");
            require(interval.compareTo(Duration.ofSeconds(1)) >= 0 && interval.toMillis() % 1000 == 0,
                    "an interval must be whole seconds, at least 1s, got " + HumanDuration.format(interval));
        }

        static Every of(String duration) {
            try {
                return new Every(HumanDuration.parse(duration));
            } catch (IllegalArgumentException e) {
                throw new InvalidValueException("'every " + duration + "': " + e.getMessage());
            }
        }

        @Override
        public Optional<Instant> nextAfter(Instant after) {
            long millis = interval.toMillis();
            return Optional.of(Instant.ofEpochMilli(Math.floorDiv(after.toEpochMilli(), millis) * millis + millis));
        }

        @Override
        public String text() {
            return "every " + HumanDuration.format(interval);
        }
    }
}
