package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.bootstrap.cli.InJvmCli.Result;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI on a real local Redis Cluster (three masters, three replicas) through BATON_REDIS_CLUSTER_NODES. */
class ClusterCliTest {
    @TempDir
    Path dir;

    @Test
    void enqueueAndWorkerRunAPartitionedQueueOnACluster() throws Exception {
        TestCluster cluster = TestCluster.shared();
        InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_REDIS_URI", cluster.uri(),
                "BATON_REDIS_CLUSTER_NODES", cluster.clusterNodes(), "BATON_SCHEMA", TestEndpoints.unique("cluster")));
        String queue = QueuePartitionsCliTest.queue("cluster");

        Result config = cli.run("config");
        Result enqueued = cli.run("enqueue", "--queue", queue, "--file",
                QueuePartitionsCliTest.jobs(dir, 40).toString(), "--partitions", "6");

        assertThat(config.out()).contains(cluster.clusterNodes());
        assertThat(enqueued.exit()).as(enqueued.toString()).isZero();
        assertThat(cli.run("queue", "show", queue).out()).contains(queue + ": 6 partitions");
        InJvmCli.Worker worker = cli.startWorker("--queue", queue, "--handler", "noop", "--partitions", "6",
                "--consumer", "cluster-w");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(cli.stats(queue).get("completed").asLong()).isEqualTo(40);
            assertThat(cli.stats(queue).get("pending").asLong()).isZero();
        });
        Result stopped = worker.stop();
        assertThat(stopped.exit()).as(stopped.toString()).isZero();
        assertThat(stopped.err()).contains("worker cluster-w consuming [" + queue + "]");
    }
}
