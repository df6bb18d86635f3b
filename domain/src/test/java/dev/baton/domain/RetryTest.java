package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Backoff, jitter and the retry policy: examples first, then properties checked over many random cases. */
class RetryTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final JobError TRANSIENT = JobError.retryable("java.io.IOException", "reset");
    private static final Job JOB = Job.create(JobId.of("j"), QueueName.of("q"), "{}", NOW);

    @Test
    void exponentialBackoffGrowsByTheMultiplierUpToTheCap() {
        Backoff backoff = new Backoff.Exponential(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10));

        assertThat(backoff.delayBefore(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delayBefore(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delayBefore(4)).isEqualTo(Duration.ofSeconds(8));
        assertThat(backoff.delayBefore(5)).isEqualTo(Duration.ofSeconds(10));
        assertThat(backoff.delayBefore(10_000)).isEqualTo(Duration.ofSeconds(10));
        assertThatThrownBy(() -> backoff.delayBefore(0)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void backoffsRejectNonsense() {
        assertThatThrownBy(() -> new Backoff.Fixed(Duration.ofMillis(-1))).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Backoff.Exponential(Duration.ZERO, 2, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Backoff.Exponential(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(2)))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Backoff.Exponential(Duration.ofSeconds(1), Double.NaN, Duration.ofSeconds(2)))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Backoff.Exponential(Duration.ofSeconds(2), 2, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidValueException.class);
        assertThat(new Backoff.Fixed(Duration.ofSeconds(3)).delayBefore(7)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void backoffsStayWithinTheDueHorizon() {
        Duration beyond = DueHorizon.MAX_AHEAD.plusMillis(1);

        assertThatThrownBy(() -> new Backoff.Fixed(beyond)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("backoff delay");
        assertThatThrownBy(() -> new Backoff.Exponential(Duration.ofSeconds(1), 2, beyond))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("maximum backoff");
        assertThat(new Backoff.Fixed(DueHorizon.MAX_AHEAD).delayBefore(1)).isEqualTo(DueHorizon.MAX_AHEAD);
    }

    @Test
    void jitterVariantsSpreadTheDelay() {
        Duration delay = Duration.ofMillis(1000);

        assertThat(Jitter.NONE.apply(delay, () -> 0.99)).isEqualTo(delay);
        assertThat(Jitter.FULL.apply(delay, () -> 0.0)).isEqualTo(Duration.ZERO);
        assertThat(Jitter.FULL.apply(delay, () -> 0.25)).isEqualTo(Duration.ofMillis(250));
        assertThat(Jitter.EQUAL.apply(delay, () -> 0.0)).isEqualTo(Duration.ofMillis(500));
        assertThat(Jitter.EQUAL.apply(delay, () -> 0.5)).isEqualTo(Duration.ofMillis(750));
        assertThatThrownBy(() -> Jitter.FULL.apply(delay, () -> 1.0)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> Jitter.EQUAL.apply(delay, () -> -0.1)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void theRetryPolicyRetriesUntilTheLastAttemptThenGivesUp() {
        RetryPolicy policy = new RetryPolicy(3, new Backoff.Fixed(Duration.ofSeconds(5)), Jitter.NONE, Set.of());

        assertThat(policy.decide(JOB, TRANSIENT, NOW, () -> 0.5))
                .isEqualTo(new RetryDecision.RetryAt(NOW.plusSeconds(5), Duration.ofSeconds(5)));
        Job third = JOB.retriedAfter(TRANSIENT, NOW).retriedAfter(TRANSIENT, NOW);
        assertThat(policy.decide(third, TRANSIENT, NOW, () -> 0.5))
                .isEqualTo(new RetryDecision.DeadLetterNow(DeadLetterReason.EXHAUSTED));
    }

    @Test
    void nonRetryableErrorsAreNeverRetried() {
        RetryPolicy policy = new RetryPolicy(5, new Backoff.Fixed(Duration.ZERO), Jitter.NONE,
                Set.of("com.example.BadInput"));
        RetryDecision dead = new RetryDecision.DeadLetterNow(DeadLetterReason.NON_RETRYABLE);

        assertThat(policy.decide(JOB, JobError.permanent("x", "no"), NOW, () -> 0)).isEqualTo(dead);
        assertThat(policy.decide(JOB, JobError.retryable("com.example.BadInput", "no"), NOW, () -> 0))
                .isEqualTo(dead);
        assertThat(policy.isRetryable(TRANSIENT)).isTrue();
        assertThat(policy.withMaxAttempts(1).decide(JOB, TRANSIENT, NOW, () -> 0))
                .isEqualTo(new RetryDecision.DeadLetterNow(DeadLetterReason.EXHAUSTED));
        assertThatThrownBy(() -> policy.withMaxAttempts(0)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void theDefaultPolicyIsFiveAttemptsWithCappedExponentialBackoff() {
        assertThat(RetryPolicy.DEFAULT.maxAttempts()).isEqualTo(5);
        assertThat(RetryPolicy.DEFAULT.backoff().delayBefore(100)).isEqualTo(Duration.ofMinutes(5));
        assertThat(RetryPolicy.DEFAULT.jitter()).isEqualTo(Jitter.EQUAL);
    }

    // ---- properties -------------------------------------------------------------------------------------------

    @Test
    void withoutJitterDelaysNeverShrinkAndNeverPassTheCap() {
        Random random = new Random(42);
        for (int run = 0; run < 500; run++) {
            Duration initial = Duration.ofMillis(1 + random.nextInt(10_000));
            double multiplier = 1.0 + random.nextDouble() * 4;
            Duration max = initial.plusMillis(random.nextInt(1_000_000));
            Backoff backoff = new Backoff.Exponential(initial, multiplier, max);
            Duration previous = Duration.ZERO;
            for (int retry = 1; retry <= 80; retry++) {
                Duration delay = Jitter.NONE.apply(backoff.delayBefore(retry), () -> 0.5);
                assertThat(delay).as("retry %d of %s", retry, backoff)
                        .isGreaterThanOrEqualTo(previous).isLessThanOrEqualTo(max);
                previous = delay;
            }
            if (multiplier >= 1.5) {
                assertThat(previous).as("%s reaches its cap", backoff).isEqualTo(max);
            }
        }
    }

    @Test
    void jitteredDelaysStayWithinTheirBounds() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            RandomSource source = random::nextDouble;
            Duration delay = Duration.ofMillis(random.nextInt(3_600_000));
            for (int draw = 0; draw < 50; draw++) {
                assertThat(Jitter.FULL.apply(delay, source)).isBetween(Duration.ZERO, delay);
                assertThat(Jitter.EQUAL.apply(delay, source))
                        .isBetween(Duration.ofMillis(delay.toMillis() / 2), delay);
            }
        }
    }

    @Test
    void aJobThatAlwaysFailsGetsExactlyMaxAttempts() {
        for (long seed = 0; seed < 300; seed++) {
            Random random = new Random(seed);
            int maxAttempts = 1 + random.nextInt(20);
            Jitter jitter = Jitter.values()[random.nextInt(Jitter.values().length)];
            RetryPolicy policy = new RetryPolicy(maxAttempts,
                    new Backoff.Exponential(Duration.ofMillis(100), 2.0, Duration.ofMinutes(1)), jitter, Set.of());
            Job job = JOB;
            Instant now = NOW;
            int attempts = 0;
            RetryDecision decision;
            do {
                attempts++;
                decision = policy.decide(job, TRANSIENT, now, random::nextDouble);
                if (decision instanceof RetryDecision.RetryAt retry) {
                    assertThat(retry.at()).isEqualTo(now.plus(retry.delay())).isAfterOrEqualTo(now);
                    job = job.retriedAfter(TRANSIENT, retry.at());
                    now = retry.at();
                }
            } while (decision instanceof RetryDecision.RetryAt);

            assertThat(attempts).as("seed %d", seed).isEqualTo(maxAttempts);
            assertThat(decision).isEqualTo(new RetryDecision.DeadLetterNow(DeadLetterReason.EXHAUSTED));
        }
    }

    @Test
    void payloadSizesMatchTheUtf8Encoding() {
        Random random = new Random(7);
        for (int run = 0; run < 2_000; run++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(20); i > 0; i--) {
                int codePoint = switch (random.nextInt(4)) {
                    case 0 -> random.nextInt(0x80);
                    case 1 -> 0x80 + random.nextInt(0x800 - 0x80);
                    case 2 -> 0xE000 + random.nextInt(0x1000);
                    default -> 0x10000 + random.nextInt(0x10000);
                };
                text.appendCodePoint(codePoint);
            }
            String payload = text.toString();
            int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
            assertThat(PayloadLimit.bytes(payload)).as(payload).isEqualTo(bytes);
            assertThat(new PayloadLimit(Math.max(1, bytes)).admits(payload)).isTrue();
        }
    }
}
