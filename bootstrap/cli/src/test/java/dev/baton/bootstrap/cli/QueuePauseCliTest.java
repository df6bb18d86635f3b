package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.cli.InJvmCli.Result;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code baton queue pause|resume} end to end on a partitioned queue: the CLI in this JVM on real Redis. */
class QueuePauseCliTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The worker reads the pauses once a second: two reads, and nothing ran. */
    private static final Duration TWO_CHECKS = Duration.ofSeconds(2);

    @Test
    void aPausedPartitionedQueueWaitsForItsResumeWhileAWorkerRuns() throws Exception {
        InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_MODE", "at-least-once"));
        String queue = QueuePartitionsCliTest.queue("pause");
        assertThat(cli.run("queue", "declare", queue, "--partitions", "3").exit()).isZero();

        Result paused = cli.run("queue", "pause", queue);
        for (int i = 0; i < 10; i++) {
            assertThat(cli.run("enqueue", "--queue", queue, "--job-id", "j-" + i, "--payload", "x").exit()).isZero();
        }

        assertThat(paused.exit()).as(paused.toString()).isZero();
        assertThat(paused.out()).contains(queue + ": paused");
        assertThat(cli.run("queue", "show", queue).out()).contains(queue + ": 3 partitions, paused");
        assertThat(cli.run("stats", "--queue", queue).out()).contains("PAUSED").contains("yes");
        assertThat(cli.stats(queue).get("paused").asBoolean()).isTrue();
        // a queue that is not paused: once its job ran, the worker has read the pauses and leases
        String canary = QueuePartitionsCliTest.queue("canary");
        InJvmCli.Worker worker = cli.startWorker("--queue", queue, "--queue", canary, "--handler", "noop",
                "--partitions", "3");
        try {
            assertThat(cli.run("enqueue", "--queue", canary, "--job-id", "c-1", "--payload", "x", "--partitions", "3")
                    .exit()).isZero();
            await().atMost(WAIT).until(() -> cli.stats(canary).get("lag").asLong() == 0
                    && cli.stats(canary).get("pending").asLong() == 0);
            await().during(TWO_CHECKS).atMost(TWO_CHECKS.multipliedBy(3)).until(() ->
                    cli.stats(queue).get("lag").asLong() == 10 && cli.stats(queue).get("pending").asLong() == 0);

            Result resumed = cli.run("queue", "resume", queue);

            assertThat(resumed.out()).contains(queue + ": resumed");
            await().atMost(WAIT).until(() -> cli.stats(queue).get("lag").asLong() == 0
                    && cli.stats(queue).get("pending").asLong() == 0);
            assertThat(cli.run("queue", "show", queue).out()).contains(queue + ": 3 partitions")
                    .doesNotContain("paused");
        } finally {
            assertThat(worker.stop().exit()).isZero();
        }
    }
}
