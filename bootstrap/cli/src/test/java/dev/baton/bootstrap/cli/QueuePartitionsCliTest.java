package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.cli.InJvmCli.Result;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton queue ...} and {@code --partitions} end to end: the CLI in this JVM on real Redis and PostgreSQL. */
class QueuePartitionsCliTest {
    @TempDir
    Path dir;

    @Test
    void theFirstDeclarationWinsAndOnlyADrainedQueueIsRepartitioned() {
        InJvmCli cli = cli(Map.of("BATON_MODE", "at-least-once"));
        String queue = queue("declare");

        Result first = cli.run("queue", "declare", queue, "--partitions", "3");
        Result other = cli.run("queue", "declare", queue, "--partitions", "4");
        Result show = cli.run("queue", "show", queue);

        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(first.out()).contains(queue + ": 3 partitions");
        assertThat(other.exit()).as(other.toString()).isEqualTo(2);
        assertThat(other.err()).contains("baton: queue " + queue + " has 3 partition(s) in Redis, not the 4 declared "
                + "here: use --partitions 3");
        assertThat(show.out()).contains(queue + ": 3 partitions");
        assertThat(cli.run("queue", "show", queue("never")).out()).contains(": 1 partitions");
        Result zero = cli.run("queue", "declare", queue, "--partitions", "0");
        assertThat(zero.exit()).isEqualTo(2);
        assertThat(zero.err()).contains("a queue has 1..1024 partitions, got 0");

        Result empty = cli.run("queue", "repartition", queue, "--partitions", "4");
        assertThat(empty.exit()).as(empty.toString()).isZero();
        assertThat(empty.out()).contains(queue + ": 4 partitions");
        Result enqueued = cli.run("enqueue", "--queue", queue, "--job-id", "j-1", "--payload", "x");
        assertThat(enqueued.exit()).as(enqueued.toString()).isZero();
        Result busy = cli.run("queue", "repartition", queue, "--partitions", "2");
        assertThat(busy.exit()).as(busy.toString()).isEqualTo(2);
        assertThat(busy.err()).contains("queue " + queue + " still holds work", "before repartitioning");
        assertThat(cli.run("queue", "show", queue).out()).contains(queue + ": 4 partitions");
    }

    @Test
    void partitionedEnqueueAndWorkerRunEveryJobAndRefuseAnotherCount() throws Exception {
        InJvmCli cli = cli(Map.of("BATON_SCHEMA", TestEndpoints.unique("parts")));
        String queue = queue("work");

        Result enqueued = cli.run("enqueue", "--queue", queue, "--file", jobs(dir, 30).toString(), "--partitions", "3");
        Result wrongProducer = cli.run("enqueue", "--queue", queue, "--job-id", "late", "--payload", "x",
                "--partitions", "4");
        Result wrongWorker = cli.run("worker", "--queue", queue, "--handler", "noop", "--partitions", "4");

        assertThat(enqueued.exit()).as(enqueued.toString()).isZero();
        assertThat(enqueued.out()).contains("enqueued 30 jobs on " + queue);
        assertThat(cli.run("queue", "show", queue).out()).contains(queue + ": 3 partitions");
        assertThat(wrongProducer.exit()).as(wrongProducer.toString()).isEqualTo(2);
        assertThat(wrongProducer.err()).contains("has 3 partition(s) in Redis, not the 4 declared here");
        assertThat(wrongWorker.exit()).as(wrongWorker.toString()).isEqualTo(2);
        assertThat(wrongWorker.err()).contains("has 3 partition(s) in Redis, not the 4 declared here");

        InJvmCli.Worker worker = cli.startWorker("--queue", queue, "--handler", "noop", "--partitions", "3",
                "--consumer", "w-1");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(cli.stats(queue).get("completed").asLong()).isEqualTo(30);
            assertThat(cli.stats(queue).get("pending").asLong()).isZero();
        });
        Result stopped = worker.stop();
        assertThat(stopped.exit()).as(stopped.toString()).isZero();
        assertThat(stopped.err()).contains("worker w-1 consuming [" + queue + "]");
        assertThat(cli.stats(queue).get("dead").asLong()).isZero();
    }

    /** The real servers, exactly-once, no admin HTTP, then {@code more}. */
    static InJvmCli cli(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                "BATON_JDBC_URL", TestEndpoints.jdbcUrl(), "BATON_ADMIN_ADDRESS", "off"));
        env.putAll(more);
        return new InJvmCli(env);
    }

    /** A JSON-lines file of {@code count} jobs {@code job-1..}. */
    static Path jobs(Path dir, int count) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= count; i++) {
            lines.append("{\"job_id\": \"job-").append(i).append("\", \"payload\": \"p").append(i).append("\"}\n");
        }
        return Files.writeString(dir.resolve("jobs.jsonl"), lines);
    }

    static String queue(String prefix) {
        return TestEndpoints.unique(prefix).replace('_', '-');
    }
}
