package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.testing.TestEndpoints;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fault 3: the Redis server killed ({@code kill -9}) and restarted mid-run. A private redis-server: the shared one is
 * never restarted.
 */
@Tag("faults")
class RedisRestartIT {

    @ParameterizedTest
    @EnumSource(value = PrivateRedis.Persistence.class, names = {"AOF_ALWAYS", "AOF_EVERYSEC"})
    void withAnAppendOnlyFileNothingIsLost(PrivateRedis.Persistence persistence) {
        try (PrivateRedis redis = PrivateRedis.start(persistence);
             Scenario scenario = Scenario.on("redis-" + persistence.name().toLowerCase(Locale.ROOT)
                     .replace('_', '-'), redis.uri(), TestEndpoints.jdbcUrl(), Map.of())) {
            scenario.enqueue(new JobMix(0.1, 0.01, 0.01, 20), SoakSize.scaled(400));
            WorkerFleet fleet = scenario.startWorkers(2);
            Chaos chaos = new Chaos(scenario);
            chaos.awaitProgress(0.3);
            chaos.crashRedis(redis);
            chaos.awaitProgress(0.6);
            chaos.crashRedis(redis);
            scenario.verify(Duration.ofMinutes(3), fleet);
            assertThat(fleet.workers()).allMatch(WorkerProcess::isAlive);
        }
    }

    /**
     * Without persistence a restart starts empty: every job not completed by then is gone from Redis (undelivered,
     * pending, delayed and dead-lettered jobs alike) and only the ledger remembers the completed ones. The workers
     * must come back by themselves (re-creating the group) and run what is enqueued afterwards.
     */
    @Test
    void withoutPersistenceTheBacklogIsLostButWorkersComeBack() {
        try (PrivateRedis redis = PrivateRedis.start(PrivateRedis.Persistence.NONE);
             Scenario scenario = Scenario.on("redis-none", redis.uri(), TestEndpoints.jdbcUrl(), Map.of())) {
            List<JobSpec> before = scenario.enqueue(JobMix.plain().sleepingUpTo(20), SoakSize.scaled(400));
            WorkerFleet fleet = scenario.startWorkers(2);
            Chaos chaos = new Chaos(scenario);
            chaos.awaitProgress(0.4);
            chaos.crashRedis(redis);
            assertThat(scenario.probe().streamLength()).as("an empty dataset after the restart").isZero();
            chaos.awaitLedgerQuiet();
            List<JobSpec> destroyed = before.stream().filter(j -> !scenario.ledger().isCompleted(j.jobId()))
                    .toList();
            scenario.acceptLoss(destroyed, "Redis without persistence restarted empty");
            scenario.enqueue(JobMix.plain(), SoakSize.scaled(200));
            scenario.verify(Duration.ofMinutes(3), fleet);
            assertThat(destroyed).as("the restart hit a backlog").isNotEmpty();
            assertThat(fleet.workers()).allMatch(WorkerProcess::isAlive);
        }
    }
}
