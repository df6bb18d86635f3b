package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ThrottleTest {
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final Throttle throttle = new Throttle(clock, MINUTE);

    @Test
    void oneEventPerKeyGoesThroughPerInterval() {
        assertThat(throttle.admits("type ship-order")).isTrue();
        assertThat(throttle.admits("type ship-order")).isFalse();
        assertThat(throttle.admits("type refund")).as("each key has its own interval").isTrue();

        clock.advance(MINUTE.minusMillis(1));
        assertThat(throttle.admits("type ship-order")).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(throttle.admits("type ship-order")).isTrue();
        assertThat(throttle.admits("type ship-order")).isFalse();
    }

    @Test
    void keysWhoseIntervalPassedAreForgottenOnceThereAreMany() {
        IntStream.range(0, Throttle.MOST_KEYS).forEach(i -> throttle.admits("type t-" + i));
        clock.advance(MINUTE);

        assertThat(throttle.admits("type new")).isTrue();
        assertThat(throttle.admits("type t-1")).as("forgotten, so admitted as new").isTrue();
        assertThat(throttle.admits("type new")).isFalse();
    }
}
