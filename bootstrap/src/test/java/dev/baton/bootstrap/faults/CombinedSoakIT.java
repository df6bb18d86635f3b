package dev.baton.bootstrap.faults;

import static dev.baton.bootstrap.faults.QueueProbe.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
        // the first batch goes before the first fault, so one round more than there are faults
        int rounds = (int) Math.max(Fault.values().length + 1, duration.toSeconds() / 5);
        int batch = Math.max(1, total / rounds);
        try (PrivateRedis redis = PrivateRedis.start(PrivateRedis.Persistence.AOF_EVERYSEC);
             PrivatePostgres postgres = PrivatePostgres.start();
             // a retention longer than the run: workers forget older completions, and the check needs them all
             Scenario scenario = Scenario.on("soak", redis.uri(), postgres.jdbcUrl(),
                     Map.of("BATON_DELIVERY_LIMIT", "10", "BATON_RETENTION", "1h"))) {
            Chaos chaos = new Chaos(scenario);
            Random random = scenario.random();
            long started = System.nanoTime();
            scenario.enqueue(MIX, batch);
            WorkerFleet fleet = scenario.startWorkers(3);
            int enqueued = batch;
            List<Fault> cycle = new ArrayList<>();
            int injected = 0;
            while (enqueued < total) {
                // past the time, the rest goes at once; but every fault gets its round first
                boolean late = injected >= Fault.values().length
                        && Duration.ofNanos(System.nanoTime() - started).compareTo(duration) > 0;
                int next = late ? total - enqueued : Math.min(batch, total - enqueued);
                scenario.enqueue(MIX, next);
                enqueued += next;
                chaos.awaitProgress(1.0 - 0.75 * next / enqueued);
                if (cycle.isEmpty()) {
                    cycle.addAll(List.of(Fault.values()));
                    Collections.shuffle(cycle, random);
                }
                inject(cycle.remove(0), chaos, fleet, redis, postgres, scenario);
                injected++;
            }
            Verdict verdict = scenario.verify(Duration.ofMinutes(Math.max(3, total / 2000)), fleet);
            scenario.note(verdict.jobs() + " jobs in " + Duration.ofNanos(System.nanoTime() - started).toSeconds()
                    + "s");
            assertThat(scenario.faults().total()).isGreaterThanOrEqualTo(rounds / 2);
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
            case FREEZE -> {
                // jobs that outlast the freeze's setup, so that some worker surely holds a lease to lose
                scenario.enqueue(JobMix.plain().sleepingExactly(5_000), 3);
                chaos.freezeWorker(fleet);
            }
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
