package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestCluster;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The transport contracts on a partitioned queue of a Redis Cluster (three masters, three replicas). */
class ClusterStreamTransportContractTest extends PartitionedContract {
    private static RedisAdapter adapter;
    private static RawKeys raw;

    @BeforeAll
    static void connect() {
        TestCluster cluster = TestCluster.shared();
        adapter = RedisAdapter.open(new RedisAdapter.Config(cluster.uri(), "-workers", PAYLOAD_LIMIT,
                Duration.ofSeconds(10), false).withClusterNodes(cluster.clusterNodes()), Clock.systemUTC());
        raw = RawKeys.cluster(cluster.clusterNodes());
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
    RawKeys raw() {
        return raw;
    }
}
