package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DeadlineLoopTest {
    private final InFlight inFlight = new InFlight(4);
    private final DeadlineLoop sweep = new DeadlineLoop(inFlight);
    private final ExecutorService jobThread = Executors.newSingleThreadExecutor();
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void stopJobThread() {
        jobThread.shutdownNow();
    }

    @Test
    void deadlinesAreCheckedAFiftiethOfTheTimeoutApartWithinBounds() {
        assertThat(DeadlineLoop.interval(Duration.ofSeconds(10))).isEqualTo(Duration.ofMillis(200));
        assertThat(DeadlineLoop.interval(Duration.ofMillis(100))).isEqualTo(Duration.ofMillis(5));
        assertThat(DeadlineLoop.interval(Duration.ofHours(1))).isEqualTo(Duration.ofMillis(500));
    }

    @Nested
    class WhenAnAttemptIsPastItsDeadline {
        @Test
        void aRunningHandlerIsInterrupted() throws Exception {
            HeldDelivery held = hold("sleepy");
            held.startDeadline(System.nanoTime());
            CountDownLatch inHandler = new CountDownLatch(1);
            Future<Optional<String>> attempt = jobThread.submit(() -> held.runHandler(context -> {
                inHandler.countDown();
                never.await();
                return Optional.empty();
            }, null));
            assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(sweep.runOnce()).isEqualTo(new DeadlineLoop.TimedOut(1));

            assertThatThrownBy(() -> attempt.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(held.isPastDeadline()).isTrue();
        }

        @Test
        void itMayNotStartItsHandlerButStillFinishesAsATimeout() {
            HeldDelivery held = hold("late");
            held.startDeadline(System.nanoTime());

            assertThat(sweep.runOnce()).isEqualTo(new DeadlineLoop.TimedOut(1));

            assertThatThrownBy(() -> held.runHandler(context -> Optional.of("ran"), null))
                    .isInstanceOf(HeldDelivery.AttemptCancelled.class).hasMessageContaining("deadline");
            assertThat(held.beginFinish()).isTrue();
        }
    }

    @Test
    void attemptsInTheirDeadlineAndDeliveriesNotRunningAreLeftAlone() throws Exception {
        HeldDelivery running = hold("in-time");
        running.startDeadline(System.nanoTime() + Duration.ofHours(1).toNanos());
        HeldDelivery ended = hold("ended");
        ended.startDeadline(System.nanoTime());
        ended.clearDeadline();
        HeldDelivery waiting = hold("waiting");

        assertThat(sweep.runOnce()).isEqualTo(new DeadlineLoop.TimedOut(0));

        assertThat(running.isPastDeadline()).isFalse();
        assertThat(ended.isPastDeadline()).isFalse();
        assertThat(waiting.isPastDeadline()).isFalse();
        assertThat(running.runHandler(context -> Optional.of("ran"), null)).contains("ran");
    }

    private HeldDelivery hold(String jobId) {
        return inFlight.hold(Deliveries.leased(jobId)).orElseThrow();
    }
}
