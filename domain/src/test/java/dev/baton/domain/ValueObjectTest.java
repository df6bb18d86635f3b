package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValueObjectTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @ParameterizedTest
    @ValueSource(strings = {"orders", "a", "Orders.v2", "emails_high-priority", "0day"})
    void queueNamesAcceptRedisSafeNames(String name) {
        assertThat(QueueName.of(name).value()).isEqualTo(name);
        assertThat(QueueName.of(name)).hasToString(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-orders", ".hidden", "a b", "a:b", "{orders}", "ünicode", "tab\tname"})
    void queueNamesRejectWhatBreaksAKeyOrHashTag(String name) {
        assertThatThrownBy(() -> QueueName.of(name)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("queue name");
    }

    @Test
    void queueNamesHaveAtMostAHundredCharacters() {
        assertThat(QueueName.of("q".repeat(100)).value()).hasSize(100);
        assertThatThrownBy(() -> QueueName.of("q".repeat(101))).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> QueueName.of(null)).isInstanceOf(InvalidValueException.class)
                .hasMessage("queue name is required");
    }

    @Test
    void jobIdsArePrintableAndBounded() {
        assertThat(JobId.of("order-1001 ✓").value()).isEqualTo("order-1001 ✓");
        assertThat(JobId.of("x".repeat(JobId.MAX_LENGTH)).value()).hasSize(JobId.MAX_LENGTH);
        assertThatThrownBy(() -> JobId.of("")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> JobId.of("x".repeat(JobId.MAX_LENGTH + 1)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("257");
        assertThatThrownBy(() -> JobId.of("line\nbreak")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> JobId.of(null)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void consumerNamesHaveNoSpacesOrControlCharacters() {
        assertThat(ConsumerName.of("host-1234")).hasToString("host-1234");
        assertThatThrownBy(() -> ConsumerName.of(" ")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> ConsumerName.of("host 1")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> ConsumerName.of("bell\u0007")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> ConsumerName.of("c".repeat(201))).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void payloadLimitCountsUtf8Bytes() {
        PayloadLimit limit = new PayloadLimit(4);

        assertThat(limit.admits("abcd")).isTrue();
        assertThat(limit.admits("abcde")).isFalse();
        assertThat(limit.admits("éé")).isTrue();
        assertThat(limit.admits("ééa")).isFalse();
        assertThat(limit.admits("😀")).isTrue();
        assertThat(limit.admits("😀a")).isFalse();
        assertThat(limit.check("€")).isEqualTo("€");
        assertThatThrownBy(() -> limit.check("€€")).isInstanceOf(InvalidValueException.class)
                .hasMessage("payload has 6 bytes, more than the limit of 4");
        assertThatThrownBy(() -> new PayloadLimit(0)).isInstanceOf(InvalidValueException.class);
        assertThat(PayloadLimit.DEFAULT.maxBytes()).isEqualTo(1024 * 1024);
    }

    @Test
    void deliveryLimitIsExceededOnlyAboveTheMaximum() {
        DeliveryLimit limit = new DeliveryLimit(5);

        assertThat(limit.exceededBy(5)).isFalse();
        assertThat(limit.exceededBy(6)).isTrue();
        assertThatThrownBy(() -> new DeliveryLimit(0)).isInstanceOf(InvalidValueException.class);
        assertThat(DeliveryLimit.DEFAULT).isEqualTo(limit);
    }

    @Test
    void retentionIsPositiveAndComparesByAge() {
        Retention day = new Retention(Duration.ofDays(1));

        assertThat(day.isCoveredBy(new Retention(Duration.ofDays(2)))).isTrue();
        assertThat(day.isCoveredBy(day)).isTrue();
        assertThat(day.isCoveredBy(new Retention(Duration.ofHours(23)))).isFalse();
        assertThatThrownBy(() -> new Retention(Duration.ZERO)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Retention(Duration.ofSeconds(-1))).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Retention(null)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void jobErrorsAreAbbreviatedAndClassified() {
        JobError longError = JobError.retryable("x", "m".repeat(5000));
        JobError fromException = JobError.of(new IllegalStateException("broken"), false);

        assertThat(longError.message()).hasSize(JobError.MAX_MESSAGE_LENGTH).endsWith("…");
        assertThat(JobError.retryable("t", null).message()).isEmpty();
        assertThat(fromException).isEqualTo(new JobError("java.lang.IllegalStateException", "broken", false));
        assertThat(JobError.retryable("t", "m").asPermanent()).isEqualTo(JobError.permanent("t", "m"));
        JobError permanent = JobError.permanent("t", "m");
        assertThat(permanent.asPermanent()).isSameAs(permanent);
        assertThatThrownBy(() -> JobError.retryable(null, "m")).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void aTimedOutAttemptIsARetryableTimeoutError() {
        JobError error = new AttemptOutcome.TimedOut(Duration.ofSeconds(60)).asError();

        assertThat(error.type()).isEqualTo("timeout");
        assertThat(error.retryable()).isTrue();
        assertThat(error.message()).contains("PT1M");
    }

    @Test
    void completionsNeedAPositiveAttempt() {
        assertThatThrownBy(() -> new Completion(JobId.of("j"), QueueName.of("q"), Optional.empty(), 0,
                ConsumerName.of("w"), "1-0", Optional.empty(), NOW)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void anErrorTraceKeepsTheCauseChainWithinItsBounds() {
        IllegalStateException deep = new IllegalStateException("outer", new java.io.IOException("disk full"));
        deep.setStackTrace(frames(ErrorTrace.MAX_FRAMES + 7));

        String trace = ErrorTrace.of(deep).text();

        assertThat(trace).startsWith("java.lang.IllegalStateException: outer\n\tat Frame.f0(Frame.java:1)")
                .contains("\t... 7 more").contains("Caused by: java.io.IOException: disk full");
        assertThat(trace.lines().filter(line -> line.startsWith("\tat Frame."))).hasSize(ErrorTrace.MAX_FRAMES);
        assertThat(new ErrorTrace("x".repeat(ErrorTrace.MAX_LENGTH * 2)).text()).hasSize(ErrorTrace.MAX_LENGTH);
    }

    @Test
    void anErrorTraceEndsACyclicCauseChain() {
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);

        assertThat(ErrorTrace.of(first).text().lines().filter(line -> !line.startsWith("\t"))).hasSize(2);
    }

    private static StackTraceElement[] frames(int count) {
        StackTraceElement[] frames = new StackTraceElement[count];
        for (int i = 0; i < count; i++) {
            frames[i] = new StackTraceElement("Frame", "f" + i, "Frame.java", i + 1);
        }
        return frames;
    }

    @Test
    void onlyMalformedDeadLettersMayLackAJob() {
        QueueName queue = QueueName.of("q");
        Map<String, String> raw = Map.of("job_id", "j-9", "payload", "x");
        DeadLetter malformed = DeadLetter.malformed(queue, raw, "missing attempt", NOW);
        Job job = Job.create(JobId.of("j-1"), queue, "{}", NOW);

        assertThat(malformed.reason()).isEqualTo(DeadLetterReason.MALFORMED);
        assertThat(malformed.jobId()).contains("j-9");
        assertThat(malformed.lastError().retryable()).isFalse();
        assertThat(DeadLetter.of(job, DeadLetterReason.EXHAUSTED, JobError.permanent("t", "m"), 3, NOW).jobId())
                .contains("j-1");
        assertThat(DeadLetter.malformed(queue, Map.of(), "empty", NOW).jobId()).isEmpty();
        assertThatThrownBy(() -> new DeadLetter(queue, Optional.empty(), raw, DeadLetterReason.POISON,
                JobError.permanent("t", "m"), 1, NOW, Optional.empty())).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> DeadLetter.of(job, DeadLetterReason.EXHAUSTED, JobError.permanent("t", "m"), -1,
                NOW)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void deadLetterSelectionsMatchByIdReasonOrAll() {
        QueueName queue = QueueName.of("q");
        Job job = Job.create(JobId.of("j"), queue, "{}", NOW);
        StoredDeadLetter exhausted = new StoredDeadLetter(DeadLetterId.of("1-0"),
                DeadLetter.of(job, DeadLetterReason.EXHAUSTED, JobError.permanent("t", "m"), 3, NOW));
        StoredDeadLetter poison = new StoredDeadLetter(DeadLetterId.of("2-0"),
                DeadLetter.of(job, DeadLetterReason.POISON, JobError.permanent("t", "m"), 6, NOW));

        assertThat(new DeadLetterSelection.All().matches(poison)).isTrue();
        assertThat(new DeadLetterSelection.ByIds(List.of(DeadLetterId.of("2-0"))).matches(poison)).isTrue();
        assertThat(new DeadLetterSelection.ByIds(List.of(DeadLetterId.of("2-0"))).matches(exhausted)).isFalse();
        assertThat(new DeadLetterSelection.ByReason(DeadLetterReason.EXHAUSTED).matches(exhausted)).isTrue();
        assertThat(new DeadLetterSelection.ByReason(DeadLetterReason.EXHAUSTED).matches(poison)).isFalse();
        assertThatThrownBy(() -> new DeadLetterSelection.ByIds(List.of())).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void collectionsInValuesAreCopiesThatCannotChange() {
        List<DeadLetterId> ids = new ArrayList<>(List.of(DeadLetterId.of("1-0")));
        DeadLetterSelection.ByIds selection = new DeadLetterSelection.ByIds(ids);
        List<ConsumerStats> consumers = new ArrayList<>();
        QueueStats stats = new QueueStats(QueueName.of("q"), 0, OptionalLong.empty(), 0, Duration.ZERO, consumers,
                0, 0, 0, 0, false);

        ids.add(DeadLetterId.of("2-0"));
        consumers.add(new ConsumerStats("w", 0, Duration.ZERO));

        assertThat(selection.ids()).containsExactly(DeadLetterId.of("1-0"));
        assertThat(stats.consumers()).isEmpty();
        assertThatThrownBy(() -> selection.ids().add(DeadLetterId.of("3-0")))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
