package dev.baton.bootstrap.faults;

import static dev.baton.bootstrap.faults.QueueProbe.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every fault at once, at random, while jobs keep arriving: worker kills, freezes and graceful stops, Redis
 * crashes (AOF everysec), PostgreSQL backends terminated and crashes, trimming, raw garbage in the stream and group
 * rollbacks. CI runs it bounded; {@code -Dbaton.faults.jobs=100000 -Dbaton.faults.minutes=30} makes it a soak.
 */
@Tag("faults")
class CombinedSoakIT {
    private static final JobMix MIX = new JobMix(0.1, 0.01, 0.01, 20);

    @Test
    void everyFaultTogetherLosesNoJobAndDoublesNoEffect() {
        int total = SoakSize.jobs(1100);
        Duration duration = SoakSize.minutes(Duration.ofSeconds(45));
        try (PrivateRedis redis = PrivateRedis.start(PrivateRedis.Persistence.AOF_EVERYSEC);
             PrivatePostgres postgres = PrivatePostgres.start();
             // a retention longer than the run: workers forget older completions, and the check needs them all
             Scenario scenario = Scenario.on("soak", redis.uri(), postgres.jdbcUrl(),
                     Map.of("BATON_DELIVERY_LIMIT", "10", "BATON_RETENTION", "1h"))) {
            Chaos chaos = new Chaos(scenario);
            FaultRounds<Fault> rounds = new FaultRounds<>(scenario, MIX, total, duration, List.of(Fault.values()));
            rounds.enqueueFirstBatch();
            WorkerFleet fleet = scenario.startWorkers(3);
            rounds.run(fault -> inject(fault, chaos, fleet, redis, postgres, scenario));
            Verdict verdict = scenario.verify(Duration.ofMinutes(Math.max(3, total / 2000)), fleet);
            scenario.note(verdict.jobs() + " jobs in " + rounds.elapsed().toSeconds() + "s");
            assertThat(scenario.faults().total()).isGreaterThanOrEqualTo(rounds.rounds() / 2);
        }
    }

    /** The faults, a worker kill twice as often as the others; each cycle of rounds runs all of them once. */
    private enum Fault {
        KILL, KILL_AGAIN, FREEZE, SIGTERM, REDIS_CRASH, PG_TERMINATE, PG_CRASH, TRIM, ROLLBACK, GARBAGE
    }

    private static void inject(Fault fault, Chaos chaos, WorkerFleet fleet, PrivateRedis redis,
                               PrivatePostgres postgres, Scenario scenario) {
        switch (fault) {
            case KILL, KILL_AGAIN -> chaos.killWorker(fleet);
            case FREEZE -> chaos.freezeWorkerMidJob(fleet);
            case SIGTERM -> chaos.stopGracefully(fleet);
            case REDIS_CRASH -> chaos.crashRedis(redis);
            case PG_TERMINATE -> chaos.terminateBackends(postgres);
            case PG_CRASH -> chaos.crashPostgres(postgres);
            case TRIM -> chaos.trim();
            case ROLLBACK -> chaos.rollBackGroup();
            case GARBAGE -> {
                scenario.probe().appendRaw(Map.of(bytes("job_id"), bytes("garbage-" + scenario.random().nextInt()),
                        bytes("payload"), new byte[] {(byte) 0xFF, (byte) 0xFE}, bytes("attempt"), bytes("x")));
                scenario.faults().count("raw garbage entry");
            }
        }
        fleet.restartDead();
    }
}
