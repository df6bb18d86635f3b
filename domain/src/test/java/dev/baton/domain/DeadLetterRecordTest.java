package dev.baton.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeadLetterRecordTest {
    private static final QueueName QUEUE = QueueName.of("orders");
    private static final ConsumerName WORKER = ConsumerName.of("w1");
    private static final Instant AT = Instant.parse("2026-11-29T10:00:00.123456789Z");

    @Test
    void aJobsRecordIsKeyedByIdWithItsErrorFinalAndTimeInMillis() {
        Job job = Job.create(JobId.of("order-1"), QUEUE, "{}", AT);
        DeadLetter letter = DeadLetter.of(job, DeadLetterReason.EXHAUSTED, JobError.retryable("io", "reset"), 3, AT);

        DeadLetterRecord record = DeadLetterRecord.of(letter, WORKER, "1-0");

        assertThat(record.key()).isEqualTo("order-1");
        assertThat(record.error()).isEqualTo(JobError.permanent("io", "reset"));
        assertThat(record.deadAt()).isEqualTo(Instant.parse("2026-11-29T10:00:00.123Z"));
        assertThat(record.letterFor(job)).isEqualTo(DeadLetter.of(job, DeadLetterReason.EXHAUSTED,
                JobError.permanent("io", "reset"), 3, record.deadAt()));
    }

    @Test
    void aMalformedEntryIsKeyedByItsRawJobIdElseByItsEntry() {
        DeadLetter withId = DeadLetter.malformed(QUEUE, Map.of("job_id", "raw-7"), "no payload", AT);
        DeadLetter withoutId = DeadLetter.malformed(QUEUE, Map.of("payload", "{}"), "no job id", AT);

        assertThat(DeadLetterRecord.of(withId, WORKER, "5-0").key()).isEqualTo("raw-7");
        assertThat(DeadLetterRecord.of(withoutId, WORKER, "5-1").key()).isEqualTo("entry:orders:5-1")
                .isEqualTo(DeadLetterRecord.entryKey(QUEUE, "5-1"));
    }

    @Test
    void aRecordNeedsAKeyAndNoNegativeAttempts() {
        JobError error = JobError.permanent("t", "m");
        assertThatThrownBy(() -> new DeadLetterRecord(" ", QUEUE, DeadLetterReason.POISON, error, 1, WORKER, "1-0",
                AT)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new DeadLetterRecord("k", QUEUE, DeadLetterReason.POISON, error, -1, WORKER, "1-0",
                AT)).isInstanceOf(InvalidValueException.class);
    }
}
