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
        try (Scenario scenario = Scenario.onSharedServers("kill", Map.of("BATON_DELIVERY_LIMIT", "10"))) {
            scenario.enqueue(new JobMix(0.1, 0, 0, 30), SoakSize.scaled(600));
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
