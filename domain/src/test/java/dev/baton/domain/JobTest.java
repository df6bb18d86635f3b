package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JobTest {
    private static final Instant ENQUEUED = Instant.parse("2026-11-29T12:00:00Z");
    private static final JobError ERROR = JobError.retryable("java.io.IOException", "reset");

    private final Job job = Job.create(JobId.of("order-1"), QueueName.of("orders"), "{\"n\":1}", ENQUEUED);

    @Test
    void aNewJobIsDueNowWithNoAttemptsYet() {
        assertThat(job.attempt()).isZero();
        assertThat(job.currentAttempt()).isEqualTo(1);
        assertThat(job.type()).isEmpty();
        assertThat(job.headers()).isEmpty();
        assertThat(job.isDueAt(ENQUEUED)).isTrue();
    }

    @Test
    void aRetriedJobCountsTheAttemptKeepsTheErrorAndWaits() {
        Instant due = ENQUEUED.plusSeconds(10);

        Job retried = job.retriedAfter(ERROR, due);

        assertThat(retried.attempt()).isEqualTo(1);
        assertThat(retried.currentAttempt()).isEqualTo(2);
        assertThat(retried.lastError()).contains(ERROR);
        assertThat(retried.notBefore()).contains(due);
        assertThat(retried.isDueAt(due.minusMillis(1))).isFalse();
        assertThat(retried.isDueAt(due)).isTrue();
        assertThat(retried.enqueuedAt()).isEqualTo(ENQUEUED);
        assertThat(retried.id()).isEqualTo(job.id());
        assertThat(job.attempt()).isZero();
    }

    @Test
    void aSnoozedJobKeepsItsAttemptAndErrorAndCountsTheSnooze() {
        Job failedOnce = job.withHeaders(Map.of("trace", "t-1")).retriedAfter(ERROR, ENQUEUED.plusSeconds(1));

        Job snoozed = failedOnce.snoozedUntil(ENQUEUED.plusSeconds(60)).snoozedUntil(ENQUEUED.plusSeconds(120));

        assertThat(snoozed.attempt()).isEqualTo(1);
        assertThat(snoozed.lastError()).contains(ERROR);
        assertThat(snoozed.notBefore()).contains(ENQUEUED.plusSeconds(120));
        assertThat(snoozed.snoozes()).isEqualTo(2);
        assertThat(snoozed.headers()).containsEntry("trace", "t-1").containsEntry(Job.SNOOZES, "2");
        assertThat(job.snoozes()).isZero();
        assertThat(job.withHeaders(Map.of(Job.SNOOZES, "many")).snoozes()).as("a foreign header").isZero();
    }

    @Test
    void aJobThatRanHasStoppedWaitingForAHandler() {
        Job waiting = job.withHeaders(Map.of("trace", "t-1")).waitingForHandler(ENQUEUED, ENQUEUED.plusSeconds(1));

        assertThat(waiting.noHandlerSince()).contains(ENQUEUED);
        assertThat(waiting.attempt()).isEqualTo(job.attempt());
        assertThat(waiting.retriedAfter(ERROR, ENQUEUED.plusSeconds(5)).headers()).containsOnlyKeys("trace");
        assertThat(waiting.snoozedUntil(ENQUEUED.plusSeconds(5)).headers()).containsOnlyKeys("trace", Job.SNOOZES);
        assertThat(waiting.withoutHandlerWait().noHandlerSince()).isEmpty();
    }

    @Test
    void aCompletionIsOfTheJobWithItsQueueIdAndTypeOnly() {
        Completion shipped = new Completion(job.id(), job.queue(), Optional.of("ship"), 2, ConsumerName.of("w"),
                "1-0", Optional.empty(), ENQUEUED);
        Job ship = job.withType("ship");

        assertThat(shipped.isOf(ship.retriedAfter(ERROR, ENQUEUED))).isTrue();
        assertThat(shipped.isOf(job.withType("mail"))).isFalse();
        assertThat(shipped.isOf(job)).as("untyped").isFalse();
        assertThat(shipped.isOf(Job.create(job.id(), QueueName.of("mail"), "{}", ENQUEUED).withType("ship"))).isFalse();
        assertThat(shipped.isOf(Job.create(JobId.of("order-2"), job.queue(), "{}", ENQUEUED).withType("ship")))
                .isFalse();
    }

    @Test
    void aRedrivenJobStartsOverButKeepsItsIdentity() {
        Job tired = job.withType("invoice").withHeaders(Map.of("trace", "t-1"))
                .retriedAfter(ERROR, ENQUEUED.plusSeconds(1)).retriedAfter(ERROR, ENQUEUED.plusSeconds(3));

        Job redriven = tired.redriven();

        assertThat(redriven.attempt()).isZero();
        assertThat(redriven.notBefore()).isEmpty();
        assertThat(redriven.lastError()).isEmpty();
        assertThat(redriven.type()).contains("invoice");
        assertThat(redriven.headers()).containsEntry("trace", "t-1");
        assertThat(redriven.enqueuedAt()).isEqualTo(ENQUEUED);
        assertThat(redriven.payload()).isEqualTo(job.payload());
    }

    @Test
    void withersChangeOnlyTheirField() {
        Job delayed = job.notBefore(ENQUEUED.plusSeconds(60));

        assertThat(delayed.notBefore()).contains(ENQUEUED.plusSeconds(60));
        assertThat(delayed.withType("email").type()).contains("email");
        assertThat(delayed.withType(null).type()).isEmpty();
        assertThat(delayed.withType("email").notBefore()).isEqualTo(delayed.notBefore());
    }

    @Test
    void headersAreCopied() {
        Map<String, String> headers = new HashMap<>(Map.of("a", "1"));
        Job withHeaders = job.withHeaders(headers);

        headers.put("b", "2");

        assertThat(withHeaders.headers()).containsOnlyKeys("a");
    }

    @Test
    void invariantsAreEnforced() {
        assertThatThrownBy(() -> new Job(job.id(), job.queue(), Optional.empty(), "{}", -1, ENQUEUED,
                Optional.empty(), Optional.empty(), Map.of())).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> job.withType(" ")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> job.withType("t".repeat(201))).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> Job.create(job.id(), job.queue(), null, ENQUEUED))
                .isInstanceOf(InvalidValueException.class).hasMessage("payload is required");
        assertThatThrownBy(() -> Job.create(null, job.queue(), "{}", ENQUEUED))
                .isInstanceOf(InvalidValueException.class);
    }

    @Nested
    class HeaderNames {
        @ParameterizedTest
        @ValueSource(strings = {"traceparent", "X-B3-TraceId", "unique_for_ms", "a!#$%&'*+-.^_`|~9"})
        void tokensAreAccepted(String name) {
            assertThat(job.withHeaders(Map.of(name, "v")).headers()).containsOnlyKeys(name);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "two words", "line\nbreak", "nul\u0000", "tab\t", "a:b", "(x)", "é", "del\u007F"})
        void othersAreRefusedWithTheNameShownSafely(String name) {
            assertThatThrownBy(() -> job.withHeaders(Map.of(name, "v"))).isInstanceOf(InvalidValueException.class)
                    .hasMessageStartingWith("header name '").hasMessageContaining("RFC 7230 token")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContainPattern("\\p{Cntrl}"));
        }

        @Test
        void theLimitIs128Characters() {
            assertThat(job.withHeaders(Map.of("h".repeat(128), "v")).headers()).hasSize(1);
            assertThatThrownBy(() -> job.withHeaders(Map.of("h".repeat(129), "v")))
                    .isInstanceOf(InvalidValueException.class).hasMessageContaining("1..128");
        }
    }
}
