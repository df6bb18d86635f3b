package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CronExpressionTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    /** The next {@code count} fire times after {@code after} (local ISO text in {@code zone}), as zoned text. */
    private static List<String> fires(String cron, ZoneId zone, String after, int count) {
        CronExpression expression = CronExpression.parse(cron);
        ZonedDateTime time = ZonedDateTime.parse(after).withZoneSameInstant(zone);
        List<String> fires = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            time = expression.next(time, zone).orElseThrow();
            fires.add(time.toOffsetDateTime().toString());
        }
        return fires;
    }

    private static List<String> utc(String cron, String after, int count) {
        return fires(cron, ZoneOffset.UTC, after, count);
    }

    @Test
    void everyMinuteFiresAtTheNextWholeMinuteStrictlyAfter() {
        assertThat(utc("* * * * *", "2026-01-01T10:00:00Z", 2))
                .containsExactly("2026-01-01T10:01Z", "2026-01-01T10:02Z");
        assertThat(utc("* * * * *", "2026-01-01T10:00:59.999Z", 1)).containsExactly("2026-01-01T10:01Z");
        assertThat(utc("* * * * *", "2026-01-01T23:59:30Z", 1)).containsExactly("2026-01-02T00:00Z");
    }

    @Test
    void rangesStepsAndListsSelectTheirValues() {
        assertThat(utc("*/20 * * * *", "2026-01-01T10:00:00Z", 3))
                .containsExactly("2026-01-01T10:20Z", "2026-01-01T10:40Z", "2026-01-01T11:00Z");
        assertThat(utc("10-30/10 8 * * *", "2026-01-01T00:00:00Z", 4))
                .containsExactly("2026-01-01T08:10Z", "2026-01-01T08:20Z", "2026-01-01T08:30Z", "2026-01-02T08:10Z");
        assertThat(utc("0 1,13,22 * * *", "2026-01-01T12:00:00Z", 3))
                .containsExactly("2026-01-01T13:00Z", "2026-01-01T22:00Z", "2026-01-02T01:00Z");
        assertThat(utc("45/5 0 1 * *", "2026-01-01T00:00:00Z", 3))
                .containsExactly("2026-01-01T00:45Z", "2026-01-01T00:50Z", "2026-01-01T00:55Z");
    }

    @Test
    void monthAndWeekdayNamesAndSundayAsSeven() {
        // 2026-01-01 is a Thursday
        assertThat(utc("0 9 * * MON-FRI", "2026-01-02T10:00:00Z", 2))
                .containsExactly("2026-01-05T09:00Z", "2026-01-06T09:00Z");
        assertThat(utc("0 9 * * 7", "2026-01-01T00:00:00Z", 1)).containsExactly("2026-01-04T09:00Z");
        assertThat(utc("0 9 * * 0", "2026-01-01T00:00:00Z", 1)).containsExactly("2026-01-04T09:00Z");
        assertThat(utc("0 0 1 jun,Dec *", "2026-01-01T00:00:00Z", 2))
                .containsExactly("2026-06-01T00:00Z", "2026-12-01T00:00Z");
    }

    @Test
    void dayOfMonthAndDayOfWeekBothRestrictedMatchEitherOne() {
        // the 13th, or any Friday: Fri 2 Jan, Fri 9 Jan, Tue 13 Jan, Fri 16 Jan
        assertThat(utc("0 0 13 * FRI", "2026-01-01T00:00:00Z", 4)).containsExactly("2026-01-02T00:00Z",
                "2026-01-09T00:00Z", "2026-01-13T00:00Z", "2026-01-16T00:00Z");
    }

    @Test
    void aStarredDayFieldLeavesTheChoiceToTheOther() {
        assertThat(utc("0 0 13 * *", "2026-01-01T00:00:00Z", 2))
                .containsExactly("2026-01-13T00:00Z", "2026-02-13T00:00Z");
        // */10 starts with '*', so no OR rule (as in Vixie cron): a Friday that is the 1st, 11th, 21st or 31st
        assertThat(utc("0 0 */10 * FRI", "2026-01-01T00:00:00Z", 2))
                .containsExactly("2026-05-01T00:00Z", "2026-07-31T00:00Z");
    }

    @Test
    void theTwentyNinthOfFebruaryWaitsForALeapYear() {
        assertThat(utc("0 0 29 2 *", "2026-01-01T00:00:00Z", 2))
                .containsExactly("2028-02-29T00:00Z", "2032-02-29T00:00Z");
    }

    @Test
    void aTimeInTheSpringForwardGapFiresOnceJustAfterTheGap() {
        // Berlin, 29 March 2026: 02:00 CET jumps to 03:00 CEST
        assertThat(fires("30 2 * * *", BERLIN, "2026-03-28T12:00:00+01:00[Europe/Berlin]", 3)).containsExactly(
                "2026-03-29T03:30+02:00", "2026-03-30T02:30+02:00", "2026-03-31T02:30+02:00");
        // every quarter hour: the gap's four times are the hour after it, each instant once
        assertThat(fires("*/15 * * * *", BERLIN, "2026-03-29T01:40:00+01:00[Europe/Berlin]", 5)).containsExactly(
                "2026-03-29T01:45+01:00", "2026-03-29T03:00+02:00", "2026-03-29T03:15+02:00",
                "2026-03-29T03:30+02:00", "2026-03-29T03:45+02:00");
    }

    @Test
    void aShiftedGapTimeIsFoundEvenFromAnInstantLaterThatMorning() {
        // 03:10 CEST is after the gap, yet before 03:30 where the gap's 02:30 fires
        assertThat(fires("30 2 * * *", BERLIN, "2026-03-29T03:10:00+02:00[Europe/Berlin]", 1))
                .containsExactly("2026-03-29T03:30+02:00");
    }

    @Test
    void aTimeThatOccursTwiceAtFallBackFiresOnceAtItsFirstOccurrence() {
        // Berlin, 25 October 2026: 03:00 CEST falls back to 02:00 CET, so 02:30 happens twice
        assertThat(fires("30 2 * * *", BERLIN, "2026-10-24T12:00:00+02:00[Europe/Berlin]", 2))
                .containsExactly("2026-10-25T02:30+02:00", "2026-10-26T02:30+01:00");
        // asked from inside the repeated hour (its second pass), the next is tomorrow's, not the repeat
        ZonedDateTime secondPass = ZonedDateTime.parse("2026-10-25T02:10:00+01:00[Europe/Berlin]");
        assertThat(CronExpression.parse("30 2 * * *").next(secondPass, BERLIN).orElseThrow().toOffsetDateTime())
                .hasToString("2026-10-26T02:30+01:00");
    }

    @Test
    void aZoneShiftsTheFireInstant() {
        assertThat(fires("0 2 * * *", BERLIN, "2026-01-01T00:00:00Z", 1)).containsExactly("2026-01-01T02:00+01:00");
        assertThat(CronExpression.parse("0 2 * * *")
                .next(Instant.parse("2026-06-30T20:00:00Z").atZone(BERLIN), BERLIN).orElseThrow().toInstant())
                .isEqualTo(Instant.parse("2026-07-01T00:00:00Z"));
    }

    @Test
    void badExpressionsNameTheFieldAndTheProblem() {
        assertThatThrownBy(() -> CronExpression.parse("* * * *")).hasMessageContaining("must have 5 fields");
        assertThatThrownBy(() -> CronExpression.parse("60 * * * *"))
                .hasMessageContaining("minute field '60': values are 0..59");
        assertThatThrownBy(() -> CronExpression.parse("* 5-2 * * *"))
                .hasMessageContaining("hour field '5-2': a range must go upwards");
        assertThatThrownBy(() -> CronExpression.parse("*/0 * * * *")).hasMessageContaining("step must be at least 1");
        assertThatThrownBy(() -> CronExpression.parse("* * * FOO *"))
                .hasMessageContaining("month field 'FOO': 'FOO' is not a number or a name");
        assertThatThrownBy(() -> CronExpression.parse("* * 1,,2 * *")).hasMessageContaining("day-of-month field ''");
        assertThatThrownBy(() -> CronExpression.parse("0 0 30 2 *")).hasMessageContaining("never fires");
        assertThatThrownBy(() -> CronExpression.parse("0 0 31 4,6 *")).hasMessageContaining("never fires");
    }
}
