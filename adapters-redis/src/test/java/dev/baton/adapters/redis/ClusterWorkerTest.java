package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The application's real worker loop on a partitioned queue of a Redis Cluster (with the in-memory ledger). */
class ClusterWorkerTest {

    @Test
    void workersRunEveryJobOfEveryPartitionOnceRetryingInThePartition() {
        TestCluster cluster = TestCluster.shared();
        QueueName queue = QueueName.of("cluster-worker-" + UUID.randomUUID().toString().substring(0, 8));
        try (RedisAdapter adapter = RedisAdapter.open(RedisAdapter.Config.of(cluster.uri())
                .withClusterNodes(cluster.clusterNodes()), Clock.systemUTC())) {
            adapter.declarePartitions(queue, 6);
            int jobs = 300;

            FlakyJobsRun.runAndCheck(adapter, queue, jobs);

            assertThat(adapter.administration().stats(queue).length()).isEqualTo(jobs + jobs / 5);
            adapter.deleteQueue(queue);
        }
    }
}
