package dev.baton.bootstrap.faults;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Fault 1: workers killed with {@code kill -9} at random moments under load, and restarted. */
@Tag("faults")
class WorkerCrashIT {

    @Test
    void killedWorkersLoseNoJobAndDoubleNoEffect() {
        killWorkersUnderLoad("kill", Map.of("BATON_DELIVERY_LIMIT", "10"), new JobMix(0.1, 0, 0, 30));
    }

    /**
     * The same with batched commits: short handlers, so that batches form, and transient failures, so that
     * first-delivery batches fall back to the savepoint path while workers die around them.
     */
    @Test
    void killedWorkersCommittingInBatchesLoseNoJobAndDoubleNoEffect() {
        killWorkersUnderLoad("kill-batched", Map.of("BATON_DELIVERY_LIMIT", "10", "BATON_CONCURRENCY", "16",
                "BATON_BATCH_COMMIT", "8", "BATON_POOL_SIZE", "auto"), new JobMix(0.1, 0, 0, 5));
    }

    private static void killWorkersUnderLoad(String name, Map<String, String> settings, JobMix mix) {
        try (Scenario scenario = Scenario.onSharedServers(name, settings)) {
            scenario.enqueue(mix, SoakSize.scaled(600));
            WorkerFleet fleet = scenario.startWorkers(3);
            Chaos chaos = new Chaos(scenario);
            int kills = 6;
            for (int k = 1; k <= kills; k++) {
                chaos.awaitProgress(k / (kills + 2.0) + scenario.random().nextDouble() / (kills + 2.0));
                chaos.killWorker(fleet);
            }
            scenario.verify(Duration.ofMinutes(3), fleet);
        }
    }
}
