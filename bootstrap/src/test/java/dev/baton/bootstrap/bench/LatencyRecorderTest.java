package dev.baton.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    private static final QueueName QUEUE = QueueName.of("bench-test");

    @Test
    void eachJobCompletedOnceOnlyWhenNoneTwiceAndNoneMissing() {
        LatencyRecorder recorder = new LatencyRecorder("bench-test-", 3);
        complete(recorder, "bench-test-0", "bench-test-1");

        assertThat(recorder.eachCompletedOnce()).as("one missing").isFalse();

        complete(recorder, "bench-test-2");

        assertThat(recorder.eachCompletedOnce()).isTrue();
        assertThat(recorder.done()).isEqualTo(3);

        complete(recorder, "bench-test-1");

        assertThat(recorder.eachCompletedOnce()).as("one twice").isFalse();
        assertThat(recorder.done()).isEqualTo(3);
    }

    @Test
    void jobsOfOtherRunsAreNotCounted() {
        LatencyRecorder recorder = new LatencyRecorder("bench-test-", 1);

        complete(recorder, "warmup-test-1-0", "bench-other-0");

        assertThat(recorder.done()).isZero();
    }

    private static void complete(LatencyRecorder recorder, String... ids) {
        for (String id : ids) {
            recorder.jobCompleted(Job.create(JobId.of(id), QUEUE, "{}", Instant.EPOCH), Duration.ZERO);
        }
    }
}
