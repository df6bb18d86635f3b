package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 2: a worker frozen ({@code kill -STOP}) for longer than its lease while it runs jobs, then resumed: the
 * others take its jobs over, exactly one effect commits per job, and the resumed worker notices its lost leases.
 */
@Tag("faults")
class FrozenWorkerIT {

    @Test
    void aWorkerFrozenBeyondItsLeaseLosesItsJobsToOthersAndNoEffectDoubles() {
        try (Scenario scenario = Scenario.onSharedServers("freeze", Map.of("BATON_DELIVERY_LIMIT", "10"))) {
            scenario.enqueue(JobMix.plain().sleepingUpTo(400), SoakSize.scaled(400));
            WorkerFleet fleet = scenario.startWorkers(3);
            Chaos chaos = new Chaos(scenario);
            List<WorkerProcess> frozen = new ArrayList<>();
            for (int round = 1; round <= 3; round++) {
                chaos.awaitProgress(round / 5.0);
                frozen.add(chaos.freezeWorker(fleet));
            }
            scenario.verify(Duration.ofMinutes(3), fleet);
            await("a resumed worker reports its lost leases").atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(frozen).anySatisfy(w ->
                            assertThat(w.logText()).containsIgnoringCase("lease").containsIgnoringCase("lost")));
        }
    }
}
