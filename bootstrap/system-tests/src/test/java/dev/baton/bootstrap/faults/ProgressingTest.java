package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ProgressingTest {
    private static final Duration POLL = Duration.ofMillis(10);
    private static final Duration WINDOW = POLL.multipliedBy(5);

    @Nested
    class ARunThatKeepsMoving {
        @Test
        void isWaitedForLongerThanTheWindow() {
            AtomicInteger polls = new AtomicInteger();
            int needed = 30; // 30 polls of at least POLL each: six windows, more than any one wait may last

            new Progressing(WINDOW, POLL).until("slow run", polls::get, () -> polls.incrementAndGet() >= needed);

            assertThat(polls).hasValue(needed);
        }
    }

    @Nested
    class ARunThatStopsMoving {
        @Test
        void failsOnceAWholeWindowPassedWithoutProgress() {
            AtomicInteger polls = new AtomicInteger();

            assertThatThrownBy(() -> new Progressing(WINDOW, POLL).until("stuck run",
                    () -> Math.min(polls.get(), 3), () -> polls.incrementAndGet() < 0))
                    .isInstanceOf(ConditionTimeoutException.class)
                    .hasMessageContaining("stuck run (nothing moved for")
                    .hasMessageContaining("from 3");
        }
    }

    @Test
    void aDoneConditionEndsTheWaitWithoutAnyProgress() {
        new Progressing(WINDOW, POLL).until("done", () -> 0, () -> true);
    }
}
