package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton queue ...} and {@code --partitions} end to end, the CLI run in this JVM on the real Redis/PostgreSQL. */
class QueuePartitionsCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theFirstDeclarationWinsAndOnlyADrainedQueueIsRepartitioned() {
        Map<String, String> env = env("at-least-once", "unused");
        String queue = queue("declare");

        Result first = run(env, "queue", "declare", queue, "--partitions", "3");
        Result other = run(env, "queue", "declare", queue, "--partitions", "4");
        Result show = run(env, "queue", "show", queue);

        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(first.out()).contains(queue + ": 3 partitions");
        assertThat(other.exit()).as(other.toString()).isEqualTo(2);
        assertThat(other.err()).contains("baton: queue " + queue + " has 3 partition(s) in Redis, not the 4 declared "
                + "here: use --partitions 3");
        assertThat(show.out()).contains(queue + ": 3 partitions");
        assertThat(run(env, "queue", "show", queue("never")).out()).contains(": 1 partitions");
        assertThat(run(env, "queue", "declare", queue, "--partitions", "0").err())
                .contains("a queue has 1..1024 partitions, got 0");

        Result empty = run(env, "queue", "repartition", queue, "--partitions", "4");
        assertThat(empty.exit()).as(empty.toString()).isZero();
        assertThat(empty.out()).contains(queue + ": 4 partitions");
        Result enqueued = run(env, "enqueue", "--queue", queue, "--job-id", "j-1", "--payload", "x");
        assertThat(enqueued.exit()).as(enqueued.toString()).isZero();
        Result busy = run(env, "queue", "repartition", queue, "--partitions", "2");
        assertThat(busy.exit()).as(busy.toString()).isEqualTo(2);
        assertThat(busy.err()).contains("queue " + queue + " still holds work", "before repartitioning");
        assertThat(run(env, "queue", "show", queue).out()).contains(queue + ": 4 partitions");
    }

    @Test
    void enqueueAndWorkerWithPartitionsProcessEveryJobAndRefuseAnotherCount() throws Exception {
        Map<String, String> env = env("exactly-once", TestEndpoints.unique("parts"));
        String queue = queue("work");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 30; i++) {
            lines.append("{\"job_id\": \"job-").append(i).append("\", \"payload\": \"p").append(i).append("\"}\n");
        }
        Path file = Files.writeString(dir.resolve("jobs.jsonl"), lines);

        Result enqueued = run(env, "enqueue", "--queue", queue, "--file", file.toString(), "--partitions", "3");
        Result wrongProducer = run(env, "enqueue", "--queue", queue, "--job-id", "late", "--payload", "x",
                "--partitions", "4");
        Result wrongWorker = run(env, "worker", "--queue", queue, "--handler", "noop", "--partitions", "4");

        assertThat(enqueued.exit()).as(enqueued.toString()).isZero();
        assertThat(enqueued.out()).contains("enqueued 30 jobs on " + queue);
        assertThat(run(env, "queue", "show", queue).out()).contains(queue + ": 3 partitions");
        assertThat(wrongProducer.exit()).as(wrongProducer.toString()).isEqualTo(2);
        assertThat(wrongProducer.err()).contains("has 3 partition(s) in Redis, not the 4 declared here");
        assertThat(wrongWorker.exit()).as(wrongWorker.toString()).isEqualTo(2);
        assertThat(wrongWorker.err()).contains("has 3 partition(s) in Redis, not the 4 declared here");

        FutureTask<Result> worker = new FutureTask<>(() -> run(env, "worker", "--queue", queue, "--handler", "noop",
                "--partitions", "3", "--consumer", "w-1"));
        Thread workerThread = new Thread(worker, "baton-worker-cli");
        workerThread.start();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode stats = stats(env, queue);
            assertThat(stats.get("completed").asLong()).isEqualTo(30);
            assertThat(stats.get("pending").asLong()).isZero();
            assertThat(stats.get("lag").asLong()).isZero();
        });
        // the worker command stops gracefully when its thread is interrupted, as on SIGTERM
        workerThread.interrupt();
        Result stopped = worker.get(60, TimeUnit.SECONDS);
        assertThat(stopped.exit()).as(stopped.toString()).isZero();
        assertThat(stopped.err()).contains("worker w-1 consuming [" + queue + "]");
        assertThat(stats(env, queue).get("dead").asLong()).isZero();
    }

    private static JsonNode stats(Map<String, String> env, String queue) throws Exception {
        Result result = run(env, "stats", "--queue", queue, "--json");
        assertThat(result.exit()).as(result.toString()).isZero();
        return JSON.readTree(result.out()).get("queues").get(0);
    }

    private static Map<String, String> env(String mode, String schema) {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_REDIS_URI", TestEndpoints.redisUri());
        env.put("BATON_JDBC_URL", TestEndpoints.jdbcUrl());
        env.put("BATON_SCHEMA", schema);
        env.put("BATON_MODE", mode);
        env.put("BATON_ADMIN_ADDRESS", "off");
        return env;
    }

    private static String queue(String prefix) {
        return TestEndpoints.unique(prefix).replace('_', '-');
    }

    static Result run(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, env, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                String.join(" ", args));
    }

    record Result(int exit, String out, String err, String args) {
        @Override
        public String toString() {
            return "baton " + args + ": exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }
}
