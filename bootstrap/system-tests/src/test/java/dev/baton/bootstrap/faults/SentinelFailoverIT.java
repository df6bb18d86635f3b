package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.TestSentinel;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 12: Redis behind Sentinel (a primary, a replica, three Sentinels), the primary killed ({@code kill -9}) while
 * two workers, given only the {@code redis-sentinel://} URI, process the queue. The Sentinels promote the replica, the
 * workers carry on without a restart, jobs enqueued after the failover reach the new primary, and the ledger
 * invariant holds for every job.
 *
 * <p>What this can promise, and what not: replication is asynchronous, so the promoted replica lacks whatever the
 * primary had not sent it. The workers' writes (leases, acknowledgements, retries) rolled back that way are made
 * harmless by the ledger: a completed job delivered again is acknowledged, not committed twice. An enqueue the
 * primary acknowledged but never replicated is a lost job, and only the transactional outbox can bring it back; so
 * every enqueue here is replicated ({@code WAIT}) before the kill, and the test checks exactly that none of them is
 * lost — not that an enqueue in the primary's last milliseconds survives.
 */
@Tag("faults")
class SentinelFailoverIT {
    /** What a worker logs (at DEBUG) when the ledger turns a second delivery of a completed job into an ack. */
    private static final String ABSORBED = "job already completed, acknowledged without committing again";

    @Nested
    class WhenThePrimaryDies {
        @Test
        void theSentinelsPromoteItsReplicaAndTheWorkersCarryOn() {
            try (TestSentinel sentinel = TestSentinel.start();
                 // DEBUG: so that the workers' logs tell which deliveries the ledger absorbed
                 Scenario scenario = Scenario.on("sentinel", sentinel.uri(), TestEndpoints.jdbcUrl(),
                         Map.of("BATON_LOG_LEVEL", "DEBUG"))) {
                List<JobSpec> before = scenario.enqueue(new JobMix(0.1, 0.01, 0.01, 10), SoakSize.scaled(2000));
                scenario.probe().awaitReplicated(1);
                WorkerFleet fleet = scenario.startWorkers(2);
                new Chaos(scenario).awaitProgress(0.3);

                int oldPrimary = sentinel.masterPort();
                long leftAtKill = before.size() - scenario.settled();
                long killedAt = System.nanoTime();
                sentinel.kill(oldPrimary);
                scenario.faults().count("Sentinel primary kill -9");
                await("the Sentinels promote the replica").atMost(Duration.ofMinutes(1))
                        .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                        .until(() -> sentinel.promotedOtherThan(oldPrimary));
                long failoverMillis = (System.nanoTime() - killedAt) / 1_000_000;

                // stream entries are never deleted here and completion rows only grow: no trace now, never a trace
                Set<String> traced = await("the new primary readable").atMost(Duration.ofMinutes(1)).ignoreExceptions()
                        .until(scenario.probe()::tracedJobIds, ids -> true);
                Set<String> completed = scenario.ledger().completions().keySet();
                List<String> lost = before.stream().map(JobSpec::jobId)
                        .filter(id -> !traced.contains(id) && !completed.contains(id)).toList();
                assertThat(lost).as("jobs without a trace in Redis or the ledger: every enqueue was replicated before "
                        + "the kill").isEmpty();
                List<JobSpec> after = scenario.enqueue(new JobMix(0.1, 0.01, 0.01, 10), SoakSize.scaled(500));

                scenario.verify(Duration.ofMinutes(3), fleet);
                assertThat(fleet.workers()).as("workers carried on through the failover")
                        .allMatch(WorkerProcess::isAlive);
                assertThat(leftAtKill).as("jobs left to the promoted replica").isPositive();
                scenario.note("primary :" + oldPrimary + " killed with " + leftAtKill + " of " + before.size()
                        + " jobs not yet settled; replica promoted after " + failoverMillis + " ms; " + after.size()
                        + " jobs enqueued after the failover; jobs lost: " + lost.size() + "; completed jobs delivered "
                        + "again and acknowledged: " + absorbed(fleet));
            }
        }
    }

    private static long absorbed(WorkerFleet fleet) {
        return fleet.workers().stream().flatMap(w -> w.logText().lines()).filter(line -> line.contains(ABSORBED))
                .count();
    }
}
