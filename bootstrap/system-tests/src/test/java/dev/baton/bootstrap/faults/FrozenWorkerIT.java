package dev.baton.bootstrap.faults;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 2: a worker frozen ({@code kill -STOP}) for longer than its lease while it runs a long job, then resumed
 * ({@code kill -CONT}): another worker takes the job over, exactly one effect commits (the completion row's key
 * serializes the two), and the resumed worker notices that it lost the lease and does not acknowledge.
 */
@Tag("faults")
class FrozenWorkerIT {
    /** Longer than the freeze below (the lease, then one reclaim), shorter than the job timeout. */
    private static final int LONG_JOB_MS = 20_000;

    @Nested
    class AWorkerFrozenBeyondItsLease {
        @Test
        void losesItsJobToAnotherAndNoEffectDoubles() {
            try (Scenario scenario = Scenario.onSharedServers("freeze", Map.of("BATON_DELIVERY_LIMIT", "10",
                    "BATON_JOB_TIMEOUT", "60s"))) {
                Set<String> longJobs = scenario.enqueue(JobMix.plain().sleepingExactly(LONG_JOB_MS), 6).stream()
                        .map(JobSpec::jobId).collect(Collectors.toSet());
                scenario.enqueue(JobMix.plain().sleepingUpTo(100), SoakSize.scaled(300));
                WorkerFleet fleet = scenario.startWorkers(3);

                WorkerProcess victim = await("a worker running a long job").atMost(Duration.ofMinutes(1))
                        .ignoreExceptions().until(() -> holderOfLongJob(scenario, fleet, longJobs), w -> w != null);
                victim.freeze();
                List<String> heldLong = scenario.probe().jobIdsOf(scenario.probe().pendingOf(victim.consumer()))
                        .entrySet().stream().filter(entry -> longJobs.contains(entry.getValue()))
                        .map(Map.Entry::getKey).toList();
                scenario.faults().count("kill -STOP beyond the lease");
                // resumed once one of its long jobs is another's, while that job still runs here: waiting for all
                // of them (taken over one suspect at a time) could outlast the jobs, which would end before the
                // lease check
                await(victim + "'s long job taken over").atMost(Duration.ofMinutes(1)).ignoreExceptions()
                        .until(() -> !scenario.probe().pendingOf(victim.consumer()).containsAll(heldLong));
                victim.resume();

                await(victim + " reports its lost lease").atMost(Duration.ofSeconds(30))
                        .until(() -> victim.logText().contains("lease lost"));
                scenario.verify(Duration.ofMinutes(3), fleet);
            }
        }
    }

    private static WorkerProcess holderOfLongJob(Scenario scenario, WorkerFleet fleet, Set<String> longJobs) {
        for (WorkerProcess worker : fleet.workers()) {
            List<String> pending = scenario.probe().pendingOf(worker.consumer());
            if (scenario.probe().jobIdsOf(pending).values().stream().anyMatch(longJobs::contains)) {
                return worker;
            }
        }
        return null;
    }
}
