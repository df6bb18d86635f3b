package dev.baton.bootstrap.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.bootstrap.testing.BatonCli;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM with jobs in flight loses nothing: a short grace period abandons the slow jobs still running, another
 * worker reclaims them after the lease, and every job completes exactly once (ledger rows = shipments = N).
 */
class ShutdownIT {
    private static final int JOBS = 120;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void sigtermStopsGracefullyAndEveryJobCompletesExactlyOnce() throws Exception {
        String queue = TestEndpoints.unique("term").replace('_', '-');
        String schema = TestEndpoints.unique("term");
        BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                "BATON_JDBC_URL", TestEndpoints.jdbcUrl(), "BATON_SCHEMA", schema, "BATON_ADMIN_ADDRESS", "off",
                "BATON_LEASE", "3s", "BATON_GRACE", "300ms", "BATON_CONCURRENCY", "8"), dir);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < JOBS; i++) {
            // every 10th order is slow: some of them are still running when the grace period ends
            int sleep = i % 10 == 0 ? 3000 : 200;
            lines.append("{\"job_id\":\"term-").append(i).append("\",\"payload\":{\"orderId\":\"t-").append(i)
                    .append("\",\"sleepMs\":").append(sleep).append("}}\n");
        }
        Path file = dir.resolve("jobs.jsonl");
        Files.writeString(file, lines.toString());
        assertThat(cli.run("enqueue", "--queue", queue, "--file", file.toString()).exitCode()).isZero();

        Ledger ledger = new Ledger(TestEndpoints.jdbcUrl(), schema);
        BatonCli.Running first = cli.start("worker", "--queue", queue, "--handler", "orders", "--consumer", "first");
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> ledger.completions(queue) >= 20);
        first.process().destroy(); // SIGTERM
        BatonCli.Result stopped = first.await(Duration.ofSeconds(30));

        assertThat(stopped.exitCode()).as(stopped.toString()).isZero();
        assertThat(stopped.stderr()).contains("worker stopped");
        assertThat(ledger.completions(queue)).as("jobs left when the first worker stopped").isLessThan(JOBS);

        BatonCli.Running second = cli.start("worker", "--queue", queue, "--handler", "orders", "--consumer", "second");
        await().atMost(Duration.ofSeconds(120)).until(() -> ledger.completions(queue) == JOBS);
        second.process().destroy();
        assertThat(second.await(Duration.ofSeconds(30)).exitCode()).isZero();

        assertThat(completed(cli, queue)).isEqualTo(JOBS);
        assertThat(ledger.shipments("term-")).isEqualTo(JOBS);
        assertThat(ledger.distinctShippedJobs("term-")).isEqualTo(JOBS);
        assertThat(JSON.readTree(cli.run("stats", "--queue", queue, "--json").stdout()).get("queues").get(0)
                .get("pending").asLong()).isZero();
    }

    private static long completed(BatonCli cli, String queue) throws Exception {
        BatonCli.Result result = cli.run("stats", "--queue", queue, "--json");
        assertThat(result.exitCode()).as(result.toString()).isZero();
        return JSON.readTree(result.stdout()).get("queues").get(0).get("completed").asLong();
    }
}
