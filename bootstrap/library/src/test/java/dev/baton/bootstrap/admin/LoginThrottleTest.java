package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final LoginThrottle throttle = new LoginThrottle(clock);
    private final LoginThrottle.Key operatorHere = new LoginThrottle.Key("operator", "10.0.0.7");

    @Test
    void theFifthFailureLocksForASecondAndEachNextForTwiceAsLong() {
        failTimes(LoginThrottle.FREE_FAILURES - 1);
        assertThat(throttle.lockedFor(operatorHere)).as("typos").isEmpty();

        assertThat(throttle.failed(operatorHere).lockedUntil()).contains(clock.instant().plusSeconds(1));
        assertThat(throttle.lockedFor(operatorHere)).contains(Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(throttle.lockedFor(operatorHere)).isEmpty();
        throttle.failed(operatorHere);
        assertThat(throttle.lockedFor(operatorHere)).contains(Duration.ofSeconds(2));
    }

    @Test
    void aLockNeverExceedsFiveMinutesAndAlwaysLapses() {
        for (int i = 0; i < 200; i++) {
            throttle.failed(operatorHere);
        }

        assertThat(throttle.lockedFor(operatorHere)).contains(LoginThrottle.MAX_LOCK);
        clock.advance(LoginThrottle.MAX_LOCK);
        assertThat(throttle.lockedFor(operatorHere)).isEmpty();
        assertThat(LoginThrottle.lock(64)).isEqualTo(LoginThrottle.MAX_LOCK);
        assertThat(LoginThrottle.lock(Integer.MAX_VALUE)).isEqualTo(LoginThrottle.MAX_LOCK);
    }

    @Test
    void otherClientsAndUsersAreNotLocked() {
        failTimes(LoginThrottle.FREE_FAILURES);

        assertThat(throttle.lockedFor(operatorHere)).isPresent();
        assertThat(throttle.lockedFor(new LoginThrottle.Key("operator", "10.0.0.8"))).isEmpty();
        assertThat(throttle.lockedFor(new LoginThrottle.Key("viewer", "10.0.0.7"))).isEmpty();
    }

    @Test
    void aGoodLoginOrAQuarterHourForgetsTheFailures() {
        failTimes(LoginThrottle.FREE_FAILURES - 1);
        throttle.succeeded(operatorHere);
        assertThat(throttle.failed(operatorHere).count()).isEqualTo(1);

        failTimes(LoginThrottle.FREE_FAILURES - 2);
        clock.advance(LoginThrottle.FORGET_AFTER);
        assertThat(throttle.failed(operatorHere).count()).isEqualTo(1);
    }

    private void failTimes(int times) {
        for (int i = 0; i < times; i++) {
            throttle.failed(operatorHere);
        }
    }
}
