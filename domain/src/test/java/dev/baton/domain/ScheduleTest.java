package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Schedules as a schedules file writes them, their fire times, job ids and catch-up policies. */
class ScheduleTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration GRACE = Duration.ofMinutes(1);

    private static Instant at(String time) {
        return Instant.parse("2026-12-01T" + time + "Z");
    }

    @Test
    void anIntervalFiresAtItsMultiplesSinceTheEpochWhenEverAsked() {
        Schedule tick = Schedule.of("tick", "every 10s", "metrics", "{}");

        assertThat(tick.nextFireTimes(at("10:00:03"), 3))
                .containsExactly(at("10:00:10"), at("10:00:20"), at("10:00:30"));
        assertThat(tick.nextFireTimes(at("10:00:10"), 1)).containsExactly(at("10:00:20"));
        assertThat(tick.cadence()).isEqualTo(new Cadence.Every(Duration.ofSeconds(10)));
    }

    @Test
    void aCronScheduleReadsItsZoneAndCatchUpFromTheScheduleColumn() {
        Schedule nightly = Schedule.of("nightly-report", "TZ=Europe/Berlin 0 2 * * * catch-up=all-within:6h",
                "reports", "{\"kind\":\"nightly\"}");

        assertThat(nightly.cadence()).isEqualTo(
                new Cadence.Cron(CronExpression.parse("0 2 * * *"), ZoneId.of("Europe/Berlin")));
        assertThat(nightly.catchUp()).isEqualTo(CatchUp.allWithin(Duration.ofHours(6)));
        assertThat(nightly.nextFireTimes(T0, 2))
                .containsExactly(Instant.parse("2026-12-02T01:00:00Z"), Instant.parse("2026-12-03T01:00:00Z"));
        assertThat(nightly.when()).isEqualTo("TZ=Europe/Berlin 0 2 * * * catch-up=all-within:6h");
        assertThat(Schedule.of("a", "*/5 * * * *", "q", "{}").when()).isEqualTo("*/5 * * * * catch-up=latest");
    }

    @Test
    void theJobOfAFireTimeHasAnIdDerivedFromNameAndTime() {
        Schedule tick = Schedule.of("tick", "every 10s", "metrics", "{\"n\":1}");

        Job job = tick.jobAt(at("10:00:10"));

        assertThat(job.id()).isEqualTo(JobId.of("schedule:tick:2026-12-01T10:00:10Z"));
        assertThat(job).isEqualTo(tick.jobAt(at("10:00:10")));
        assertThat(job.queue()).isEqualTo(QueueName.of("metrics"));
        assertThat(job.payload()).isEqualTo("{\"n\":1}");
        assertThat(job.enqueuedAt()).isEqualTo(at("10:00:10"));
        assertThat(job.headers()).containsEntry("schedule", "tick").containsEntry("fire_time", "2026-12-01T10:00:10Z");
    }

    @Test
    void badSchedulesSayWhatIsWrong() {
        assertThatThrownBy(() -> Schedule.of("tick", "every 10x", "q", "{}")).hasMessageContaining("'every 10x'");
        assertThatThrownBy(() -> Schedule.of("tick", "every 500ms", "q", "{}"))
                .hasMessageContaining("whole seconds, at least 1s");
        assertThatThrownBy(() -> Schedule.of("tick", "TZ=Mars/Olympus 0 2 * * *", "q", "{}"))
                .hasMessageContaining("unknown time zone 'Mars/Olympus'");
        assertThatThrownBy(() -> Schedule.of("tick", "0 2 * * * catch-up=never", "q", "{}"))
                .hasMessageContaining("catch-up 'never' must be skip, latest or all-within:<duration>");
        assertThatThrownBy(() -> Schedule.of("bad name", "every 1s", "q", "{}"))
                .hasMessageContaining("schedule name 'bad name' is invalid");
        assertThatThrownBy(() -> Schedule.of("tick", "every 1s", "a:b", "{}")).hasMessageContaining("queue name");
    }

    private static FirePlan plan(CatchUp policy, Instant settled, Instant now) {
        return Schedule.of("hourly", "0 * * * *", "q", "{}").withCatchUp(policy).plan(settled, now, GRACE, 100);
    }

    @Test
    void freshFireTimesAlwaysRunWhateverThePolicy() {
        Schedule tick = Schedule.of("tick", "every 10s", "metrics", "{}");
        FirePlan fresh = new FirePlan(List.of(at("10:00:10"), at("10:00:20")), Optional.empty());

        for (CatchUp policy : List.of(CatchUp.skip(), CatchUp.latest(), CatchUp.allWithin(Duration.ofSeconds(1)))) {
            assertThat(tick.withCatchUp(policy).plan(at("10:00:00"), at("10:00:25"), GRACE, 100)).isEqualTo(fresh);
        }
        assertThat(tick.plan(at("10:00:20"), at("10:00:25"), GRACE, 100))
                .isEqualTo(new FirePlan(List.of(), Optional.empty()));
    }

    @Test
    void missedFireTimesAreSkippedCollapsedOrRunWithinTheWindow() {
        Instant settled = at("06:30:00");
        Instant now = at("09:30:00");

        assertThat(plan(CatchUp.skip(), settled, now))
                .isEqualTo(new FirePlan(List.of(), Optional.of(at("09:00:00"))));
        assertThat(plan(CatchUp.latest(), settled, now))
                .isEqualTo(new FirePlan(List.of(at("09:00:00")), Optional.empty()));
        assertThat(plan(CatchUp.allWithin(Duration.ofHours(2)), settled, now))
                .isEqualTo(new FirePlan(List.of(at("08:00:00"), at("09:00:00")), Optional.empty()));
    }

    @Test
    void latestRunsNoMissedTimeWhenAFreshOneRunsAnyway() {
        FirePlan plan = plan(CatchUp.latest(), at("06:30:00"), at("09:00:30"));

        assertThat(plan).isEqualTo(new FirePlan(List.of(at("09:00:00")), Optional.empty()));
    }

    @Test
    void aLongBacklogIsRunAFewAtATime() {
        Schedule tick = Schedule.of("tick", "every 1s catch-up=all-within:1d", "metrics", "{}");

        FirePlan plan = tick.plan(at("00:00:00"), at("10:00:00"), GRACE, 3);

        assertThat(plan.fire()).containsExactly(at("00:00:01"), at("00:00:02"), at("00:00:03"));
    }
}
