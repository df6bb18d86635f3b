package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 10: a master of a Redis Cluster killed ({@code kill -9}) while two workers process a queue partitioned over
 * every master. Its replica is promoted, the workers carry on (they are not restarted), and the ledger invariant
 * holds for every job.
 *
 * <p>Replication is asynchronous: the replica lacks whatever the master had not yet sent it when it died. For the
 * workers' writes (leases, acknowledgements, retries, dead letters) that is a rollback the ledger makes harmless: a
 * completed job whose acknowledgement is gone is delivered again and acknowledged, not committed twice. A lost enqueue
 * would be a lost job; the jobs here are all enqueued, and replicated, before the workers start, so there is no
 * enqueue left to lose, and the test checks that precisely: every job has a trace in Redis after the failover.
 */
@Tag("faults")
class ClusterMasterKillIT {
    private static final int PARTITIONS = 6;
    /** What a worker logs (at DEBUG) when the ledger turns a second delivery of a completed job into an ack. */
    private static final String ABSORBED = "job already completed, acknowledged without committing again";

    @Test
    void aKilledMastersReplicaTakesOverAndNoJobIsLostOrRunTwice() {
        try (TestCluster cluster = TestCluster.start();
             // DEBUG: so that the workers' logs tell which deliveries the ledger absorbed
             Scenario scenario = Scenario.onCluster("cluster-kill", cluster, PARTITIONS, TestEndpoints.jdbcUrl(),
                     Map.of("BATON_LOG_LEVEL", "DEBUG"))) {
            List<JobSpec> jobs = scenario.enqueue(new JobMix(0.1, 0.01, 0.01, 10), SoakSize.scaled(3000));
            await("every enqueue on a replica").atMost(Duration.ofSeconds(60)).until(cluster::replicated);
            WorkerFleet fleet = scenario.startWorkers(2);
            new Chaos(scenario).awaitProgress(0.3);

            KeyLayout keys = scenario.probe().keys();
            List<Integer> masters = cluster.masterPorts();
            int victim = masters.get(scenario.random().nextInt(masters.size()));
            Set<Integer> victimPartitions = Placement.of(cluster, keys).partitionsOn(victim);
            Set<String> settled = settledJobIds(scenario);
            long leftOnVictim = jobs.stream().filter(j -> victimPartitions.contains(keys.partitionOf(j.jobId())))
                    .filter(j -> !settled.contains(j.jobId())).count();
            long killedAt = System.nanoTime();
            cluster.kill(victim);
            scenario.faults().count("cluster master kill -9");
            await("the replica promoted").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions().until(() -> cluster.healthy()
                            && !Placement.of(cluster, keys).masters().contains(victim));
            long failoverMillis = (System.nanoTime() - killedAt) / 1_000_000;
            assertThat(cluster.masterPorts()).as("the replica is a master now").hasSize(3).doesNotContain(victim);

            // stream entries are never deleted here and completion rows only grow: no trace now, never a trace
            Set<String> traced = await("every partition readable").atMost(Duration.ofMinutes(1)).ignoreExceptions()
                    .until(scenario.probe()::tracedJobIds, ids -> true);
            Set<String> completed = scenario.ledger().completions().keySet();
            List<String> lostWithTheMaster = jobs.stream().map(JobSpec::jobId)
                    .filter(id -> !traced.contains(id) && !completed.contains(id))
                    .map(id -> id + " (partition " + keys.partitionOf(id) + ")").toList();
            assertThat(lostWithTheMaster).as("jobs without a trace in Redis or the ledger: only the killed master's "
                    + "partitions " + victimPartitions + " could lose any, and only enqueues it had not replicated; "
                    + "every enqueue was replicated before the kill").isEmpty();

            scenario.verify(Duration.ofMinutes(3), fleet);
            assertThat(fleet.workers()).as("workers carried on through the failover").allMatch(WorkerProcess::isAlive);
            assertThat(leftOnVictim).as("jobs of the killed master's partitions left to the promoted replica")
                    .isPositive();
            scenario.note("killed master :" + victim + " with partitions " + victimPartitions + " of " + PARTITIONS
                    + " and " + leftOnVictim + " of their jobs not yet settled; replica promoted after "
                    + failoverMillis + " ms; jobs lost with the master: " + lostWithTheMaster.size()
                    + "; completed jobs delivered again and acknowledged: " + logLines(fleet));
        }
    }

    private static Set<String> settledJobIds(Scenario scenario) {
        Set<String> settled = new HashSet<>(scenario.ledger().completions().keySet());
        settled.addAll(scenario.invariant().deadJobs().keySet());
        return settled;
    }

    private static long logLines(WorkerFleet fleet) {
        return fleet.workers().stream().flatMap(w -> w.logText().lines()).filter(line -> line.contains(ABSORBED))
                .count();
    }
}
