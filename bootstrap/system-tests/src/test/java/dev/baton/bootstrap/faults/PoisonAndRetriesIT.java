package dev.baton.bootstrap.faults;

import static dev.baton.bootstrap.faults.QueueProbe.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.Consumer;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 6: poison jobs (1% of the load) and failing jobs: poison is dead-lettered as POISON when it halts its worker
 * (after the delivery limit) or NON_RETRYABLE when it fails; transiently failing jobs complete after retries; jobs
 * that fail every attempt are EXHAUSTED.
 */
@Tag("faults")
class PoisonAndRetriesIT {
    private static final JobMix MIX = new JobMix(0.2, 0.02, 0.01, 20);

    @Nested
    class PoisonThatHaltsWorkers {
        @Test
        void isDeadLetteredAsPoisonAfterTheDeliveryLimit() {
            try (Scenario scenario = Scenario.crashingOnPoison("poison-crash", Map.of("BATON_DELIVERY_LIMIT", "3"))) {
                scenario.enqueue(MIX, SoakSize.scaled(200));
                WorkerFleet fleet = scenario.startWorkers(3);
                Verdict verdict = scenario.verify(Duration.ofMinutes(4), fleet);
                long poison = scenario.jobs().stream().filter(JobSpec::poison).count();
                assertThat(verdict.deadByReason().getOrDefault("POISON", 0)).isGreaterThanOrEqualTo((int) poison);
                assertThat(scenario.faults().get("worker halted by a poison job, restarted"))
                        .isGreaterThanOrEqualTo(poison);
            }
        }
    }

    @Nested
    class PoisonThatFails {
        @Test
        void isNonRetryableAndTransientFailuresCompleteAfterRetries() {
            try (Scenario scenario = Scenario.onSharedServers("poison-fail", Map.of())) {
                scenario.enqueue(MIX, SoakSize.scaled(600));
                WorkerFleet fleet = scenario.startWorkers(2);
                Verdict verdict = scenario.verify(Duration.ofMinutes(3), fleet);
                long poison = scenario.jobs().stream().filter(JobSpec::poison).count();
                long exhausted = scenario.jobs().stream().filter(j -> j.failTimes() >= Scenario.MAX_ATTEMPTS).count();
                long retriedThenDone = scenario.jobs().stream()
                        .filter(j -> j.failTimes() > 0 && j.failTimes() < Scenario.MAX_ATTEMPTS).count();
                assertThat(verdict.deadByReason()).isEqualTo(expectedDead(poison, exhausted));
                assertThat(verdict.completed()).isEqualTo(scenario.jobs().size() - poison - exhausted);
                assertThat(retriedThenDone).as("the mix has transiently failing jobs").isPositive();
            }
        }
    }

    /**
     * Regression: a job whose effect committed but whose worker died before the XACK, delivered again once more than
     * the delivery limit allows, must be acknowledged as completed, not dead-lettered as POISON (a dead letter for a
     * completed job invites a redrive and breaks "completed or dead, never both").
     */
    @Nested
    class ACompletedJobDeliveredBeyondTheDeliveryLimit {
        @Test
        void isAcknowledgedNotDeadLettered() {
            try (Scenario scenario = Scenario.onSharedServers("poison-completed",
                    Map.of("BATON_DELIVERY_LIMIT", "3"))) {
                scenario.cli().runOk("migrate");
                QueueProbe probe = scenario.probe();
                byte[] stream = bytes("baton:{" + scenario.queue() + "}:stream");
                byte[] group = bytes(scenario.queue() + "-workers");
                probe.redis().xgroupCreate(StreamOffset.from(stream, "0"), group,
                        XGroupCreateArgs.Builder.mkstream());
                String entry = probe.appendRaw(Map.of(bytes("job_id"), bytes("done-before-crash"),
                        bytes("payload"), bytes("{\"orderId\":\"done\"}"), bytes("attempt"), bytes("0")));
                // delivered to a consumer that committed the effect and died, then redelivered until the limit
                probe.redis().xreadgroup(Consumer.from(group, bytes("ghost")), StreamOffset.lastConsumed(stream));
                probe.redis().xclaim(stream, Consumer.from(group, bytes("ghost")),
                        XClaimArgs.Builder.minIdleTime(0).idle(Duration.ofMinutes(10)).retryCount(3), entry);
                scenario.ledger().recordCompletion("done-before-crash", scenario.queue(), entry);
                scenario.faults().count("completed entry redelivered beyond the delivery limit");

                scenario.startWorkers(1);

                await("the entry settled").atMost(Duration.ofMinutes(1)).ignoreExceptions()
                        .until(() -> probe.pending() == 0);
                assertThat(probe.deadLetters()).as("dead letters").isEmpty();
            }
        }
    }

    private static Map<String, Integer> expectedDead(long poison, long exhausted) {
        Map<String, Integer> dead = new TreeMap<>();
        if (poison > 0) {
            dead.put("NON_RETRYABLE", (int) poison);
        }
        if (exhausted > 0) {
            dead.put("EXHAUSTED", (int) exhausted);
        }
        return dead;
    }
}
