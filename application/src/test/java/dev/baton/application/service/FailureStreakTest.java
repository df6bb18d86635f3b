package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class FailureStreakTest {
    private final FailureStreak streak = new FailureStreak();

    @Test
    void onlyTheFirstFailureOfAStreakIsAWarning() {
        assertThat(streak.failed()).isEqualTo(Level.WARN);
        assertThat(streak.failed()).isEqualTo(Level.DEBUG);
        assertThat(streak.failed()).isEqualTo(Level.DEBUG);
    }

    @Test
    void aSuccessEndsTheStreakAndSaysHowLongItWas() {
        streak.failed();
        streak.failed();

        assertThat(streak.succeeded()).isEqualTo(2);
        assertThat(streak.succeeded()).as("no streak to end").isZero();
        assertThat(streak.failed()).as("a new streak").isEqualTo(Level.WARN);
    }
}
