package dev.baton.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void parsesEveryUnitAndIso8601() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse(" PT1M30S ")).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void rejectsNumbersWithoutUnitAndGarbage() {
        assertThatThrownBy(() -> Durations.parse("30")).hasMessageContaining("500ms, 30s, 5m");
        assertThatThrownBy(() -> Durations.parse("-5s")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Durations.parse("99999999999999999999s"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void formatsInTheShortestExactUnit() {
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.format(Duration.ofMinutes(5))).isEqualTo("5m");
        assertThat(Durations.format(Duration.ofDays(1))).isEqualTo("1d");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    }
}
