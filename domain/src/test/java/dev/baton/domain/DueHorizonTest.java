package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DueHorizonTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void dueTimesUpTo3653DaysAheadAreAccepted() {
        Instant latest = NOW.plus(Duration.ofDays(3653));

        assertThat(DueHorizon.check(latest, NOW)).isEqualTo(latest);
        assertThat(DueHorizon.check(NOW.minusSeconds(60), NOW)).as("a past due time is due now")
                .isEqualTo(NOW.minusSeconds(60));
    }

    @Test
    void aDueTimeBeyondTheHorizonIsRefusedNamingTheLatest() {
        assertThatThrownBy(() -> DueHorizon.check(NOW.plus(Duration.ofDays(3653)).plusMillis(1), NOW))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("due time 2036-11-29T12:00:00.001Z is more than 10 years (3653 days) ahead: the latest"
                        + " allowed now is 2036-11-29T12:00:00Z");
        assertThatThrownBy(() -> DueHorizon.check(Instant.MAX, NOW)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void delaysBeyondTheHorizonAreRefused() {
        assertThat(DueHorizon.checkDelay("delay", Duration.ofDays(3653))).isEqualTo(Duration.ofDays(3653));
        assertThatThrownBy(() -> DueHorizon.checkDelay("delay", Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(InvalidValueException.class).hasMessageStartingWith("delay PT")
                .hasMessageEndingWith(" is more than 10 years (3653 days)");
    }
}
