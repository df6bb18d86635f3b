package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestCluster;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The transport contracts on a partitioned queue of a Redis Cluster (three masters, three replicas), its keys under a
 * namespace of their own: the namespace stays outside the hash tags, so every script still touches one slot.
 */
class ClusterStreamTransportContractTest extends PartitionedContract {
    private static final Namespace NAMESPACE = new Namespace("cluster-contract");
    private static RedisAdapter adapter;
    private static RawKeys raw;

    @BeforeAll
    static void connect() {
        TestCluster cluster = TestCluster.shared();
        adapter = RedisAdapter.open(new RedisAdapter.Config(cluster.uri(), "-workers", PAYLOAD_LIMIT,
                Duration.ofSeconds(10), false).withClusterNodes(cluster.clusterNodes())
                        .withNamespace(NAMESPACE.value()),
                Clock.systemUTC());
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

    @Override
    Namespace namespace() {
        return NAMESPACE;
    }
}
