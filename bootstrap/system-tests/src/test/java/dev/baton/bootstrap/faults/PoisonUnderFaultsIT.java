package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Poison among faults: orders of which a few halt their worker ({@code --demo-crash-on-poison}) and some fail
 * transiently, three workers of concurrency 8 killed at random and restarted, one frozen past its lease, and once
 * everything settled, the group rewound to the start ({@code XGROUP SETID … 0}, a failover that lost the group's
 * progress), so that every job is delivered again, dead-lettered ones included. Only a poison job may be blamed for
 * the crashes: each one ends POISON, every other job completes once, none ends both completed and dead.
 *
 * <p>CI runs one round of each fault; {@code -Dbaton.faults.minutes=10} keeps the faults coming for ten minutes
 * (with {@code -Dbaton.faults.jobs} to size the load), see docs/RELIABILITY.md.
 */
@Tag("faults")
class PoisonUnderFaultsIT {
    /** 0.5% poison, 3% transient failures, and no job that fails for good: only poison may end dead. */
    private static final JobMix MIX = new JobMix(0.03, 0, 0.005, 20);

    @Test
    void onlyPoisonJobsEndPoisonAndNoJobEndsBothCompletedAndDead() {
        int total = SoakSize.jobs(400);
        Duration faulting = SoakSize.minutes(Duration.ZERO);
        try (Scenario scenario = Scenario.crashingOnPoison("poison-faults", Map.of("BATON_CONCURRENCY", "8",
                "BATON_POOL_SIZE", "auto", "BATON_DELIVERY_LIMIT", "5"))) {
            Chaos chaos = new Chaos(scenario);
            FaultRounds<Fault> rounds = new FaultRounds<>(scenario, MIX, total, faulting, CYCLE);
            rounds.enqueueFirstBatch();
            WorkerFleet fleet = scenario.startWorkers(3);
            rounds.run(fault -> {
                switch (fault) {
                    case KILL -> chaos.killWorker(fleet);
                    case FREEZE -> chaos.freezeWorkerMidJob(fleet);
                }
            });
            // the rewind delivers every job again: poison that is not recognised as dead crashes workers again
            Duration drain = Duration.ofMinutes(Math.max(4, total / 500));
            scenario.note("before the rollback", scenario.awaitDrained(drain, fleet));
            chaos.rollBackGroup();
            Verdict verdict = scenario.verify(drain, fleet);

            long poison = scenario.jobs().stream().filter(JobSpec::poison).count();
            assertThat(poison).as("poison jobs in the mix").isPositive();
            assertThat(verdict.deadByReason()).as("dead jobs by reason").isEqualTo(Map.of("POISON", (int) poison));
            assertThat(verdict.completed()).isEqualTo(scenario.jobs().size() - poison);
            assertThat(scenario.faults().get("worker halted by a poison job, restarted"))
                    .as("poison halted workers").isGreaterThanOrEqualTo(poison);
            assertThat(scenario.faults().get("kill -9")).isGreaterThanOrEqualTo(3);
            assertThat(scenario.faults().get("kill -STOP beyond the lease")).isPositive();
            scenario.note(verdict.jobs() + " jobs in " + rounds.elapsed().toSeconds() + "s");
        }
    }

    private enum Fault {
        KILL, FREEZE
    }

    /** A round of faults: three kills and a freeze, in random order (repeated while the minutes last). */
    private static final List<Fault> CYCLE = List.of(Fault.KILL, Fault.KILL, Fault.KILL, Fault.FREEZE);
}
