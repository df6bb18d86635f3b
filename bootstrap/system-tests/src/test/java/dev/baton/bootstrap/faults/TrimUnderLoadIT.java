package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 8: {@code baton trim} in a loop while a large backlog waits for slow workers: trimming must never remove a
 * pending or undelivered entry, so every job is still accounted for.
 */
@Tag("faults")
class TrimUnderLoadIT {

    @Test
    void trimmingInALoopNeverDropsPendingOrUndeliveredWork() throws Exception {
        try (Scenario scenario = Scenario.onSharedServers("trim", Map.of("BATON_RETENTION", "1s",
                "BATON_CONCURRENCY", "2"))) {
            scenario.enqueue(new JobMix(0.1, 0.01, 0.01, 60), SoakSize.scaled(600));
            WorkerFleet fleet = scenario.startWorkers(2);
            Chaos chaos = new Chaos(scenario);
            AtomicBoolean trimming = new AtomicBoolean(true);
            ExecutorService operator = Executors.newSingleThreadExecutor();
            try {
                Future<?> loop = operator.submit(() -> {
                    while (trimming.get()) {
                        chaos.trim();
                    }
                });
                scenario.verify(Duration.ofMinutes(4), fleet);
                trimming.set(false);
                loop.get();
                assertThat(scenario.faults().get("trim that removed entries")).as("trims that removed history")
                        .isPositive();
            } finally {
                trimming.set(false);
                operator.shutdown();
            }
        }
    }
}
