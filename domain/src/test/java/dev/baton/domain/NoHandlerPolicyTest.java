package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job without a handler waits for one, spending nothing, until the grace since its first sighting has passed. */
class NoHandlerPolicyTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final JobError EARLIER = JobError.retryable("java.io.IOException", "reset");
    private static final Job JOB = Job.create(JobId.of("ship-1"), QueueName.of("shipping"), "{}",
            NOW.minus(Duration.ofHours(3))).withType("ship-order").retriedAfter(EARLIER, NOW);
    private static final NoHandlerPolicy POLICY = new NoHandlerPolicy(Duration.ofMinutes(15));

    @Test
    void aFirstSightingReleasesItForASecondWithoutSpendingAnAttempt() {
        Job waiting = released(POLICY.decide(JOB, NOW));

        assertThat(waiting.notBefore()).contains(NOW.plus(NoHandlerPolicy.FIRST_WAIT));
        assertThat(waiting.noHandlerSince()).contains(NOW);
        assertThat(waiting.headers()).containsEntry(Job.NO_HANDLER_SINCE, Long.toString(NOW.toEpochMilli()));
        assertThat(waiting.attempt()).isEqualTo(JOB.attempt());
        assertThat(waiting.lastError()).contains(EARLIER);
        assertThat(waiting.snoozes()).isZero();
        assertThat(waiting.enqueuedAt()).as("the grace counts from the sighting, not the enqueue")
                .isEqualTo(JOB.enqueuedAt());
    }

    @Test
    void theWaitGrowsWithTheTimeWaitedUpToAMinute() {
        assertThat(dueAfter(Duration.ofMillis(300))).isEqualTo(NoHandlerPolicy.FIRST_WAIT);
        assertThat(dueAfter(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        assertThat(dueAfter(Duration.ofMinutes(5))).isEqualTo(NoHandlerPolicy.LONGEST_WAIT);
    }

    @Test
    void theLastWaitEndsWhenTheGraceDoes() {
        assertThat(dueAfter(Duration.ofMinutes(14).plusSeconds(30))).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void afterTheGraceTheJobIsDeadLetteredWithoutItsWaitRecorded() {
        Job seen = JOB.waitingForHandler(NOW.minus(Duration.ofMinutes(15)), NOW);

        NoHandlerDecision decision = POLICY.decide(seen, NOW);

        assertThat(decision).isInstanceOfSatisfying(NoHandlerDecision.DeadLetterNow.class, dead -> {
            assertThat(dead.waited()).isEqualTo(Duration.ofMinutes(15));
            assertThat(dead.job().headers()).as("a replay waits afresh").doesNotContainKey(Job.NO_HANDLER_SINCE);
            assertThat(dead.job().attempt()).isEqualTo(JOB.attempt());
        });
    }

    @Test
    void aZeroGraceDeadLettersAtTheFirstSighting() {
        NoHandlerDecision decision = new NoHandlerPolicy(Duration.ZERO).decide(JOB, NOW);

        assertThat(decision).isEqualTo(new NoHandlerDecision.DeadLetterNow(JOB, Duration.ZERO));
    }

    @Test
    void releasedRepeatedlyAJobIsDeadLetteredExactlyWhenTheGraceEnds() {
        Instant now = NOW;
        Job job = JOB;
        int releases = 0;
        NoHandlerDecision decision = POLICY.decide(job, now);
        while (decision instanceof NoHandlerDecision.Release release) {
            releases++;
            job = release.waiting();
            now = job.notBefore().orElseThrow();
            decision = POLICY.decide(job, now);
        }

        assertThat(now).isEqualTo(NOW.plus(POLICY.grace()));
        assertThat(releases).as("leased about once a minute, not once a second").isBetween(15, 25);
    }

    @Test
    void aSightingAheadOfTheClockOrUnreadableCountsFromNow() {
        Job ahead = JOB.waitingForHandler(NOW.plus(Duration.ofHours(1)), NOW);
        Job unreadable = JOB.withHeaders(Map.of(Job.NO_HANDLER_SINCE, "soon"));

        assertThat(released(POLICY.decide(ahead, NOW)).noHandlerSince()).contains(NOW);
        assertThat(released(POLICY.decide(unreadable, NOW)).noHandlerSince()).contains(NOW);
    }

    @Test
    void aNegativeGraceIsRefused() {
        assertThatThrownBy(() -> new NoHandlerPolicy(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("must not be negative");
    }

    private static Duration dueAfter(Duration waited) {
        Job seen = JOB.waitingForHandler(NOW.minus(waited), NOW);
        return Duration.between(NOW, released(POLICY.decide(seen, NOW)).notBefore().orElseThrow());
    }

    private static Job released(NoHandlerDecision decision) {
        assertThat(decision).isInstanceOf(NoHandlerDecision.Release.class);
        return ((NoHandlerDecision.Release) decision).waiting();
    }
}
