package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import dev.baton.domain.CronField.Kind;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * A classic five-field cron expression ({@code minute hour day-of-month month day-of-week}), read in a time zone.
 * When both day fields are restricted, a day matches when either does (cron's OR rule); a field starting with
 * {@code *} leaves the choice to the other.
 *
 * <p>Daylight saving time: a wall-clock time that does not exist (spring forward) fires at the same distance past the
 * gap (02:30 in a 02:00-03:00 gap fires at 03:30), so a daily job is never lost; a time that occurs twice (fall back)
 * fires once, at its first occurrence.
 */
public record CronExpression(String text, CronField minutes, CronField hours, CronField daysOfMonth,
                             CronField months, CronField daysOfWeek) {
    /** Far enough to find a 29 February even across a century year that is not a leap year. */
    private static final int SEARCH_YEARS = 9;
    /** More than any daylight-saving shift (the largest is two hours). */
    private static final int MAX_SHIFT_HOURS = 3;

    public CronExpression {
        notNull(text, "cron expression");
    }

    /** @throws InvalidValueException naming the field and what is wrong with it */
    public static CronExpression parse(String text) {
        notNull(text, "cron expression");
        String[] fields = text.trim().split("\\s+");
        if (fields.length != 5) {
            throw new InvalidValueException("cron expression '" + text + "' must have 5 fields (minute hour "
                    + "day-of-month month day-of-week), got " + fields.length);
        }
        CronExpression expression = new CronExpression(String.join(" ", fields),
                CronField.parse(Kind.MINUTE, fields[0]), CronField.parse(Kind.HOUR, fields[1]),
                CronField.parse(Kind.DAY_OF_MONTH, fields[2]), CronField.parse(Kind.MONTH, fields[3]),
                CronField.parse(Kind.DAY_OF_WEEK, fields[4]));
        expression.requireSomeDay();
        return expression;
    }

    /** The first fire time strictly after {@code after}, in {@code zone}; empty only for an impossible date. */
    public Optional<ZonedDateTime> next(ZonedDateTime after, ZoneId zone) {
        LocalDateTime local = after.withZoneSameInstant(zone).toLocalDateTime();
        // a little earlier than the wall clock: a time in a gap earlier today may fire after this instant
        LocalTime from = local.getHour() < MAX_SHIFT_HOURS ? LocalTime.MIDNIGHT
                : local.toLocalTime().minusHours(MAX_SHIFT_HOURS).truncatedTo(ChronoUnit.MINUTES);
        LocalDate last = local.toLocalDate().plusYears(SEARCH_YEARS);
        for (LocalDate day = local.toLocalDate(); !day.isAfter(last); day = day.plusDays(1)) {
            if (matches(day)) {
                Optional<ZonedDateTime> found = firstOn(day, from, zone, after);
                if (found.isPresent()) {
                    return found;
                }
            }
            from = LocalTime.MIDNIGHT;
        }
        return Optional.empty();
    }

    /** The first matching time of {@code day} at or after {@code from} whose instant is after {@code after}. */
    private Optional<ZonedDateTime> firstOn(LocalDate day, LocalTime from, ZoneId zone, ZonedDateTime after) {
        for (int hour = hours.firstFrom(from.getHour()); hour >= 0; hour = hours.firstFrom(hour + 1)) {
            int minute = minutes.firstFrom(hour == from.getHour() ? from.getMinute() : 0);
            for (; minute >= 0; minute = minutes.firstFrom(minute + 1)) {
                // ZonedDateTime.of moves a time in a gap forward by the gap, and takes the earlier of two in an overlap
                ZonedDateTime candidate = ZonedDateTime.of(LocalDateTime.of(day, LocalTime.of(hour, minute)), zone);
                if (candidate.toInstant().isAfter(after.toInstant())) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private boolean matches(LocalDate day) {
        if (!months.allows(day.getMonthValue())) {
            return false;
        }
        boolean dayOfMonth = daysOfMonth.allows(day.getDayOfMonth());
        boolean dayOfWeek = daysOfWeek.allows(day.getDayOfWeek().getValue() % 7);
        if (daysOfMonth.restricted() && daysOfWeek.restricted()) {
            return dayOfMonth || dayOfWeek;
        }
        return dayOfMonth && dayOfWeek;
    }

    /** Refuses an expression that can never fire, such as {@code 0 0 30 2 *} (30 February). */
    private void requireSomeDay() {
        if (daysOfWeek.restricted() && daysOfMonth.restricted()) {
            return; // some weekday always comes
        }
        for (int month = 1; month <= 12; month++) {
            int longest = Month.of(month).maxLength();
            if (months.allows(month) && daysOfMonth.firstFrom(1) >= 1 && daysOfMonth.firstFrom(1) <= longest) {
                return;
            }
        }
        throw new InvalidValueException("cron expression '" + text + "' never fires: no month has such a day");
    }

    @Override
    public String toString() {
        return text;
    }
}
