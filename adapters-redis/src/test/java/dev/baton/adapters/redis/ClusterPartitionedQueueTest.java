package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Partitioned queues on a Redis Cluster of three masters (and three replicas). */
class ClusterPartitionedQueueTest extends PartitionedQueueScenarios {
    private static TestCluster cluster;
    private static RedisAdapter adapter;
    private static RawKeys raw;

    @BeforeAll
    static void connect() {
        cluster = TestCluster.shared();
        adapter = openCluster();
        raw = RawKeys.cluster(cluster.clusterNodes());
    }

    private static RedisAdapter openCluster() {
        return RedisAdapter.open(config(cluster.uri()).withClusterNodes(cluster.clusterNodes()), clock());
    }

    @AfterAll
    static void disconnect() {
        adapter.close();
        raw.close();
    }

    @Override
    RedisAdapter adapter() {
        return adapter;
    }

    @Override
    RedisAdapter openAnother() {
        return openCluster();
    }

    @Override
    RawKeys raw() {
        return raw;
    }

    /** The master holding each partition's keys now. */
    static List<Integer> mastersOf(QueueName queue, int partitions) {
        return IntStream.range(0, partitions)
                .mapToObj(p -> cluster.masterOf(SlotHash.getSlot(RawKeys.keys(queue, p, partitions).streamKey())))
                .toList();
    }

    @Test
    void jobsSpreadOverEveryMaster() {
        // where a partition lives follows from its hash slot: pick a name whose six partitions use all masters
        QueueName queue = Stream.generate(() -> queue("masters"))
                .filter(name -> new HashSet<>(mastersOf(name, 6)).size() == 3).findFirst().orElseThrow();
        adapter.declarePartitions(queue, 6);
        adapter.publisher().publishAll(IntStream.range(0, 300).mapToObj(i -> job(queue, "m-" + i)).toList());

        List<Integer> masters = mastersOf(queue, 6);
        Set<Integer> holding = new HashSet<>();
        for (int p = 0; p < 6; p++) {
            // asked of the master itself: the keys really are there, not behind a redirect
            long length = Long.parseLong(cluster.cli(masters.get(p), "XLEN",
                    RawKeys.keys(queue, p, 6).streamKey()).trim());
            assertThat(length).as("partition " + p).isPositive();
            holding.add(masters.get(p));
        }
        assertThat(holding).containsExactlyInAnyOrderElementsOf(cluster.masterPorts());
        List<Delivery> leased = drain(queue, ConsumerName.of("carol"), 50);
        assertThat(leased).extracting(PartitionedQueueScenarios::jobId).hasSize(300).doesNotHaveDuplicates();
    }

    @Test
    void aMasterThatNeverLoadedTheScriptsLoadsThemOnNoscript() {
        QueueName queue = queue("noscript");
        adapter.declarePartitions(queue, 3);
        Instant due = Instant.parse("2030-01-01T00:00:00Z");
        adapter.publisher().publishAll(IntStream.range(0, 30)
                .mapToObj(i -> job(queue, "d-" + i).notBefore(due)).toList());
        for (int port : cluster.masterPorts()) {
            assertThat(cluster.cli(port, "SCRIPT", "FLUSH")).contains("OK");
        }

        assertThat(adapter.maintenance().promoteDue(queue, due, 100)).isEqualTo(30);
        assertThat(adapter.leases().lease(queue, ConsumerName.of("dave"), 100, Duration.ZERO).deliveries()).hasSize(30);
    }
}
