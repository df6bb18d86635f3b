package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
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

    @Test
    void poisonThatHaltsWorkersIsDeadLetteredAsPoisonAfterTheDeliveryLimit() {
        try (Scenario scenario = Scenario.crashingOnPoison("poison-crash", Map.of("BATON_DELIVERY_LIMIT", "3"))) {
            scenario.enqueue(MIX, SoakSize.scaled(500));
            WorkerFleet fleet = scenario.startWorkers(3);
            Verdict verdict = scenario.verify(Duration.ofMinutes(4), fleet);
            long poison = scenario.jobs().stream().filter(JobSpec::poison).count();
            assertThat(verdict.deadByReason().getOrDefault("POISON", 0)).isGreaterThanOrEqualTo((int) poison);
            assertThat(scenario.faults().get("worker crashed (restarted)")).isGreaterThanOrEqualTo(poison);
        }
    }

    @Test
    void poisonThatFailsIsNonRetryableAndTransientFailuresCompleteAfterRetries() {
        try (Scenario scenario = Scenario.onSharedServers("poison-fail", Map.of())) {
            scenario.enqueue(MIX, SoakSize.scaled(1000));
            WorkerFleet fleet = scenario.startWorkers(3);
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

    private static Map<String, Integer> expectedDead(long poison, long exhausted) {
        Map<String, Integer> dead = new java.util.TreeMap<>();
        if (poison > 0) {
            dead.put("NON_RETRYABLE", (int) poison);
        }
        if (exhausted > 0) {
            dead.put("EXHAUSTED", (int) exhausted);
        }
        return dead;
    }
}
