package dev.baton.bootstrap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.service.JobThreads;
import dev.baton.bootstrap.cli.Main;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code baton bench} through the CLI's entry point on real Redis and PostgreSQL, a few thousand jobs in each mode.
 * Checks that it works and that every job's effect happened once; never how fast (the machine decides that).
 */
class BenchSmokeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void atLeastOnceRunsEveryJobOnceAndReportsAsJson() throws Exception {
        JsonNode report = bench("--jobs", "3000", "--warmup", "500", "--max-warmup", "0", "--mode", "at-least-once",
                "--concurrency", "16", "--json");

        assertThat(report.path("mode").asText()).isEqualTo("at-least-once");
        assertThat(report.path("handler").asText()).isEqualTo("noop");
        // no second warm-up round may start once --max-warmup has passed
        assertThat(report.path("warmup_jobs").asInt()).isEqualTo(500);
        assertThat(report.path("jit_ms").isIntegralNumber()).isTrue();
        assertThat(report.path("job_threads").asText()).isEqualTo(JobThreads.AUTO.resolve(1).label());
        assertThat(report.path("java").asText()).isEqualTo(Runtime.version().toString());
    }

    @Test
    void aConcurrencyAboveTheLargestPoolStillRunsWithTheDefaultPool() throws Exception {
        // the pool follows the concurrency, up to the most connections a pool may have
        JsonNode report = bench("--jobs", "2000", "--warmup", "0", "--mode", "at-least-once", "--concurrency", "1200",
                "--json");

        assertThat(report.path("concurrency").asInt()).isEqualTo(1200);
        assertThat(report.path("exactly_once").asBoolean()).isTrue();
    }

    @Test
    void exactlyOnceBatchedOrdersCommitEveryEffectOnce() throws Exception {
        JsonNode report = bench(Map.of("BATON_JOB_THREADS", "auto"), "--jobs", "2000", "--warmup", "200",
                "--max-warmup", "0", "--mode", "exactly-once", "--handler", "orders", "--concurrency", "16",
                "--batch-commit", "8", "--json");

        assertThat(report.path("mode").asText()).isEqualTo("exactly-once");
        // batches run their round trips one after the other: auto keeps them on platform threads on any Java
        assertThat(report.path("job_threads").asText()).isEqualTo("platform");
        assertThat(report.path("batch_commit").asInt()).isEqualTo(8);
        assertThat(report.path("checked").asText()).contains("ledger rows 2000", "demo_shipments rows 2000");
    }

    @Test
    void aSteadyRateIsOfferedAndTimed() throws Exception {
        JsonNode report = bench("--jobs", "500", "--warmup", "0", "--mode", "at-least-once", "--rate", "1000",
                "--json");

        assertThat(report.path("rate").asDouble()).isEqualTo(1000.0);
        assertThat(report.path("latency_ms").path("complete_p99").asDouble())
                .isGreaterThanOrEqualTo(report.path("latency_ms").path("start_p50").asDouble());
    }

    @Test
    void throughTheOutboxItReportsTransactionalRatesAndRunsJobsOnce() throws Exception {
        JsonNode report = bench("--jobs", "1000", "--warmup", "0", "--enqueue", "outbox", "--producers", "2",
                "--rate", "1000", "--concurrency", "8", "--json");

        assertThat(report.path("mode").asText()).as("the outbox's default mode").isEqualTo("exactly-once");
        assertThat(report.path("enqueue").asText()).isEqualTo("outbox");
        assertThat(report.path("outbox_enqueue").path("producers").asInt()).isEqualTo(2);
        assertThat(report.path("outbox_enqueue").path("one_per_tx_jobs_per_s").asDouble()).isPositive();
        assertThat(report.path("outbox_enqueue").path("bulk_1000_per_tx_jobs_per_s").asDouble()).isPositive();
        assertThat(report.path("checked").asText()).contains("ledger rows 1000");
        assertThat(report.path("latency_ms").has("commit_to_start_p99")).isTrue();
        assertThat(report.path("latency_ms").path("commit_to_start_p99").asDouble())
                .as("from the commit, so no later than from the call that made it")
                .isLessThanOrEqualTo(report.path("latency_ms").path("start_p99").asDouble());
    }

    private static JsonNode bench(String... args) throws Exception {
        return bench(Map.of(), args);
    }

    private static JsonNode bench(Map<String, String> settings, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] command = new String[args.length + 1];
        command[0] = "bench";
        System.arraycopy(args, 0, command, 1, args.length);
        Map<String, String> env = new HashMap<>(settings);
        env.put("BATON_REDIS_URI", TestEndpoints.redisUri());
        env.put("BATON_JDBC_URL", TestEndpoints.jdbcUrl());
        Set<String> schemasBefore = benchSchemas();
        int exit = Main.run(command, env, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);

        assertThat(exit).as("exit status\nstdout:\n%s\nstderr:\n%s", stdout, stderr).isZero();
        assertThat(benchSchemas()).as("the run's schemas dropped").isSubsetOf(schemasBefore);
        JsonNode report = JSON.readTree(stdout);
        assertThat(report.fieldNames()).toIterable().contains("mode", "jobs", "concurrency", "enqueue_jobs_per_s",
                "process_jobs_per_s", "latency_ms", "peak_heap_mib", "heap_after_gc_mib", "rss_mib",
                "exactly_once");
        assertThat(report.path("latency_ms").fieldNames()).toIterable()
                .startsWith("start_p50", "start_p99", "complete_p50", "complete_p99", "max");
        int jobs = report.path("jobs").asInt();
        assertThat(report.path("exactly_once").asBoolean()).as(stdout).isTrue();
        assertThat(report.path("process_jobs_per_s").asDouble()).isPositive();
        assertThat(stderr).contains(jobs + "/" + jobs);
        return report;
    }

    private static Set<String> benchSchemas() throws SQLException {
        Set<String> schemas = new HashSet<>();
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             ResultSet rows = connection.createStatement()
                     .executeQuery("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'baton\\_bench\\_%'")) {
            while (rows.next()) {
                schemas.add(rows.getString(1));
            }
        }
        return schemas;
    }
}
