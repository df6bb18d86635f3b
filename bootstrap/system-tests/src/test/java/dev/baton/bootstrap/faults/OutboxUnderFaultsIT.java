package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.testing.TestEndpoints;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 13: the transactional outbox under faults. Four producer threads enqueue 2,000 orders with
 * {@code SELECT <schema>.enqueue(...)}, five per transaction beside the producer's own order rows, and roll back the
 * transactions of 300 of them; three {@code baton worker} processes (exactly-once, each relaying the outbox) run
 * them. A private Redis without persistence is killed and restarted empty while the producers write, and a relaying
 * worker is killed with SIGKILL while they write again; rows that cannot be published (written around the function's
 * checks, or with a header Redis cannot carry) are written in between. Every committed job completes once, no
 * rolled-back job runs, the bad rows are dead-lettered MALFORMED while the rows after them are published, the relays
 * republish after the restart and never while Redis kept its data, and nothing is left pending in Redis or waiting
 * in the outbox.
 */
@Tag("faults")
class OutboxUnderFaultsIT {
    /** What a relay logs when it found the transport's epoch changed (OutboxRelay). */
    private static final Pattern REPUBLISHED = Pattern.compile("publishing again jobs=(\\d+)");
    private static final Duration STALL = Duration.ofMinutes(2);
    private static final int JOBS = 2000;
    private static final int ROLLED_BACK = 300;

    @Nested
    class CommittedAndRolledBackJobs {
        @Test
        void completeOnceOrNeverAndOnlyALossOfRedisDataIsRepublished() {
            try (PrivateRedis redis = PrivateRedis.start(PrivateRedis.Persistence.NONE);
                 Scenario scenario = Scenario.on("outbox", redis.uri(), TestEndpoints.jdbcUrl(), Map.of())) {
                scenario.cli().runOk("migrate");
                OutboxProducers producers = new OutboxProducers(scenario, 4);
                List<JobSpec> jobs = scenario.generate(JobMix.plain().sleepingUpTo(20), JOBS);
                List<JobSpec> rolledBack = new ArrayList<>();
                Chaos chaos = new Chaos(scenario);

                // a backlog in the outbox before any relay runs
                rolledBack.addAll(committed(scenario, producers.enqueue(jobs.subList(0, 800), 120)));
                WorkerFleet fleet = scenario.startWorkers(3);
                chaos.awaitProgress(0.25);
                Map<Long, String> bad = producers.writeUnpublishableRows();

                var secondWave = producers.start(jobs.subList(800, 1400), 90);
                long republishedWhileHealthy = republished(fleet);
                chaos.crashRedis(redis);
                rolledBack.addAll(committed(scenario, secondWave.join()));
                // a relay's first round after the restart republishes before it publishes anything new
                chaos.awaitProgress(0.5);

                var thirdWave = producers.start(jobs.subList(1400, 2000), 90);
                long republishedAfterLoss = republished(fleet);
                chaos.killWorker(fleet);
                rolledBack.addAll(committed(scenario, thirdWave.join()));

                Verdict verdict = scenario.verify(STALL, fleet);
                new Progressing(STALL, Duration.ofMillis(500)).until("outbox forgotten",
                        scenario.ledger()::outboxRowsLeft, () -> scenario.ledger().outboxRowsLeft() == 0);

                assertThat(verdict.completed()).as("committed jobs completed").isEqualTo(JOBS - ROLLED_BACK);
                assertThat(rolledBack).hasSize(ROLLED_BACK);
                Set<String> rolledBackIds = rolledBack.stream().map(JobSpec::jobId).collect(Collectors.toSet());
                assertThat(scenario.ledger().completions().keySet()).as("rolled-back jobs completed")
                        .doesNotContainAnyElementsOf(rolledBackIds);
                assertThat(scenario.ledger().effects().keySet()).as("rolled-back jobs' effects")
                        .doesNotContainAnyElementsOf(rolledBackIds);
                assertThat(scenario.invariant().deadJobs().keySet()).as("rolled-back jobs dead-lettered")
                        .doesNotContainAnyElementsOf(rolledBackIds);
                assertThat(scenario.ledger().outboxRowsOf(rolledBackIds)).as("rolled-back jobs' outbox rows").isZero();
                assertThat(scenario.ledger().effectsWithoutARowIn(OutboxProducers.ORDERS))
                        .as("shipments of orders that were never committed").isZero();

                Map<Long, String> malformed = scenario.ledger().malformedOutboxRows();
                assertThat(malformed).as("rows that cannot be published").containsOnlyKeys(bad.keySet());
                bad.forEach((position, reason) -> assertThat(malformed.get(position)).contains(reason));

                assertThat(republishedWhileHealthy).as("jobs republished before Redis lost its data").isZero();
                assertThat(republishedAfterLoss).as("jobs republished after Redis lost its data").isPositive();
                assertThat(republished(fleet)).as("jobs republished after the loss had been made good (a kill and a"
                        + " restart of a relaying worker included)").isEqualTo(republishedAfterLoss);
                assertThat(scenario.faults().get("kill -9")).isOne();
                scenario.note(JOBS + " jobs enqueued in producer transactions, " + ROLLED_BACK + " rolled back: "
                        + verdict.completed() + " completed once, 0 rolled-back ran, " + bad.size() + " bad rows "
                        + "dead-lettered MALFORMED; republished after the Redis restart: " + republishedAfterLoss
                        + " (rounds: " + republishEvents(fleet) + "), before it: " + republishedWhileHealthy);
            }
        }
    }

    /** Puts the wave's committed jobs under the invariant. @return its rolled-back ones */
    private static List<JobSpec> committed(Scenario scenario, OutboxProducers.Wave wave) {
        scenario.expect(wave.committed());
        return wave.rolledBack();
    }

    /** Jobs the fleet's relays published again after a loss, from their logs (dead workers' runs included). */
    private static long republished(WorkerFleet fleet) {
        return fleet.workers().stream().mapToLong(w -> {
            Matcher matcher = REPUBLISHED.matcher(w.logText());
            long sum = 0;
            while (matcher.find()) {
                sum += Long.parseLong(matcher.group(1));
            }
            return sum;
        }).sum();
    }

    private static long republishEvents(WorkerFleet fleet) {
        return fleet.workers().stream().mapToLong(w -> REPUBLISHED.matcher(w.logText()).results().count()).sum();
    }
}
