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
        LatencyRecorder recorder = new LatencyRecorder("bench-test-", 3, false);
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
        LatencyRecorder recorder = new LatencyRecorder("bench-test-", 1, false);

        complete(recorder, "warmup-test-1-0", "bench-other-0");

        assertThat(recorder.done()).isZero();
    }

    @Test
    void commitToStartRunsFromTheEnqueueCallsReturnAndIsNeverNegative() {
        LatencyRecorder recorder = new LatencyRecorder("bench-test-", 2, true);
        long now = System.nanoTime();
        recorder.offered(0, now - 5_000_000_000L);
        recorder.offered(1, now - 5_000_000_000L);
        recorder.returned(0, 1, now - 2_000_000_000L);
        recorder.returned(1, 2, now + 60_000_000_000L); // started before its producer heard the commit was done
        startAndComplete(recorder, "bench-test-0", "bench-test-1");

        LatencyRecorder.Latencies latencies = recorder.latencies();

        assertThat(latencies.startP99()).as("from the offer").isGreaterThanOrEqualTo(5_000);
        double[] commitToStart = latencies.commitToStart().orElseThrow();
        assertThat(commitToStart[0]).as("p50: the job that started first, 0 and not negative").isZero();
        assertThat(commitToStart[1]).as("p99: from the return, not the offer").isBetween(2_000.0, 4_999.0);
        assertThat(new LatencyRecorder("bench-test-", 1, false).latencies().commitToStart()).isEmpty();
    }

    private static void startAndComplete(LatencyRecorder recorder, String... ids) {
        for (String id : ids) {
            recorder.jobStarted(Job.create(JobId.of(id), QUEUE, "{}", Instant.EPOCH), Duration.ZERO);
        }
        complete(recorder, ids);
    }

    private static void complete(LatencyRecorder recorder, String... ids) {
        for (String id : ids) {
            recorder.jobCompleted(Job.create(JobId.of(id), QUEUE, "{}", Instant.EPOCH), Duration.ZERO);
        }
    }
}
