package dev.baton.bootstrap.faults;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Fault 9: every worker stopped with SIGTERM while jobs are in flight (exit 0), then restarted. */
@Tag("faults")
class GracefulShutdownIT {

    @Test
    void stoppingAllWorkersWithJobsInFlightLosesAndDoublesNothing() {
        try (Scenario scenario = Scenario.onSharedServers("sigterm", Map.of())) {
            scenario.enqueue(JobMix.plain().sleepingUpTo(300), SoakSize.scaled(300));
            WorkerFleet fleet = scenario.startWorkers(3);
            Chaos chaos = new Chaos(scenario);
            chaos.awaitProgress(0.3);
            chaos.stopGracefully(fleet);
            chaos.awaitProgress(0.6);
            chaos.stopGracefully(fleet);
            scenario.verify(Duration.ofMinutes(3), fleet);
        }
    }
}
