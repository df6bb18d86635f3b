package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.testing.TestEndpoints;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 5: the ledger's PostgreSQL failing under the workers: backends terminated during handlers and commits, and
 * the server crashed and restarted. A private cluster: the shared server is never touched.
 */
@Tag("faults")
class PostgresFaultsIT {

    @Nested
    class TerminatedBackendsDuringHandlersAndCommits {
        @Test
        void loseAndDoubleNothing() {
            try (PrivatePostgres postgres = PrivatePostgres.start();
                 Scenario scenario = Scenario.on("pg-terminate", TestEndpoints.redisUri(), postgres.jdbcUrl(),
                         Map.of("BATON_DELIVERY_LIMIT", "10"))) {
                scenario.enqueue(new JobMix(0.1, 0, 0, 40), SoakSize.scaled(500));
                WorkerFleet fleet = scenario.startWorkers(3);
                Chaos chaos = new Chaos(scenario);
                int rounds = 6;
                for (int round = 1; round <= rounds; round++) {
                    chaos.awaitProgress(round / (rounds + 2.0));
                    chaos.terminateBackends(postgres);
                }
                scenario.verify(Duration.ofMinutes(3), fleet);
                assertThat(scenario.faults().get("backend terminated")).isPositive();
                assertThat(fleet.workers()).allMatch(WorkerProcess::isAlive);
            }
        }
    }

    @Test
    void aCrashedAndRestartedLedgerLosesAndDoublesNothing() {
        try (PrivatePostgres postgres = PrivatePostgres.start();
             Scenario scenario = Scenario.on("pg-restart", TestEndpoints.redisUri(), postgres.jdbcUrl(),
                     Map.of("BATON_DELIVERY_LIMIT", "10"))) {
            scenario.enqueue(new JobMix(0.1, 0, 0, 20), SoakSize.scaled(400));
            WorkerFleet fleet = scenario.startWorkers(3);
            Chaos chaos = new Chaos(scenario);
            chaos.awaitProgress(0.3);
            chaos.crashPostgres(postgres);
            chaos.awaitProgress(0.6);
            chaos.crashPostgres(postgres);
            scenario.verify(Duration.ofMinutes(3), fleet);
            assertThat(fleet.workers()).allMatch(WorkerProcess::isAlive);
        }
    }
}
