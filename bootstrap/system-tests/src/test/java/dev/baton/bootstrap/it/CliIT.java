package dev.baton.bootstrap.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.bootstrap.testing.BatonCli;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI end to end on real Redis and PostgreSQL: worker, enqueue, stats, job, dlq, admin HTTP. */
class CliIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ADMIN = Pattern.compile("admin http on ([0-9.]+:[0-9]+)");

    @TempDir
    Path dir;

    @Test
    void workerRunsWhatEnqueueSendsAndOperatorsCanSeeAndReplayIt() throws Exception {
        String queue = TestEndpoints.unique("cli").replace('_', '-');
        String schema = TestEndpoints.unique("cli");
        BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                "BATON_JDBC_URL", TestEndpoints.jdbcUrl(), "BATON_SCHEMA", schema,
                "BATON_BACKOFF_INITIAL", "100ms", "BATON_BACKOFF_MAX", "200ms", "BATON_ADMIN_ADDRESS", "127.0.0.1:0"),
                dir);
        BatonCli.Running worker = cli.start("worker", "--queue", queue, "--handler", "orders", "--max-attempts", "2");
        String admin = awaitAdmin(worker);

        BatonCli.Result single = cli.run("enqueue", "--queue", queue, "--job-id", "order-1", "--payload",
                "{\"orderId\":\"o-1\"}");
        assertThat(single.exitCode()).as(single.toString()).isZero();
        assertThat(single.stdout()).contains("enqueued order-1 on " + queue);
        Path file = dir.resolve("jobs.jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 2; i <= 10; i++) {
            lines.append("{\"job_id\": \"order-").append(i).append("\", \"payload\": {\"orderId\": \"o-").append(i)
                    .append("\"}}\n");
        }
        lines.append("{\"job_id\": \"order-stubborn\", \"payload\": {\"orderId\": \"o-s\", \"failTimes\": 2}}\n");
        Files.writeString(file, lines.toString());
        BatonCli.Result bulk = cli.run("enqueue", "--queue", queue, "--file", file.toString());
        assertThat(bulk.exitCode()).as(bulk.toString()).isZero();
        assertThat(bulk.stdout()).contains("enqueued 10 jobs on " + queue);
        assertThat(bulk.stderr()).contains("10/10");

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode stats = stats(cli, queue);
            assertThat(stats.get("completed").asLong()).isEqualTo(10);
            assertThat(stats.get("dead").asLong()).isEqualTo(1);
        });
        BatonCli.Result table = cli.run("stats", "--queue", queue);
        assertThat(table.stdout()).contains("QUEUE", "PENDING", "COMPLETED", queue);
        assertThat(table.stdout()).as("the ledger's dead letters by reason").contains("DEAD-IN-LEDGER", "EXHAUSTED");
        assertThat(stats(cli, queue).get("dead_in_ledger").get("EXHAUSTED").asLong()).isEqualTo(1);

        BatonCli.Result job = cli.run("job", "order-3", "--queue", queue);
        assertThat(job.stdout()).contains("state: completed", "result: shipped o-3");
        BatonCli.Result dead = cli.run("job", "order-stubborn", "--queue", queue);
        assertThat(dead.stdout()).contains("state: dead", "reason: EXHAUSTED", "carrier unavailable",
                "in_redis: dead letter ");
        assertThat(cli.run("job", "order-never", "--queue", queue).stdout()).contains("state: unknown");

        JsonNode letters = JSON.readTree(cli.run("dlq", "list", "--queue", queue, "--json").stdout());
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).get("reason").asText()).isEqualTo("EXHAUSTED");
        String letterId = letters.get(0).get("id").asText();
        assertThat(cli.run("dlq", "show", "--queue", queue, "--id", letterId).stdout()).contains("order-stubborn");

        HttpClient http = HttpClient.newHttpClient();
        assertThat(get(http, admin, "/health/live").statusCode()).isEqualTo(200);
        HttpResponse<String> ready = get(http, admin, "/health/ready");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).contains("\"redis\" : \"up\"", "\"postgres\" : \"up\"");
        assertThat(get(http, admin, "/metrics").body())
                .contains("baton_jobs_completed_total{queue=\"" + queue + "\"} 10.0")
                .contains("baton_jobs_dead_lettered_total{queue=\"" + queue + "\",reason=\"EXHAUSTED\"} 1.0")
                .contains("baton_job_processing_seconds{queue=\"" + queue + "\",quantile=\"0.99\"}");
        JsonNode api = JSON.readTree(get(http, admin, "/api/queues").body());
        // other tests' queues on the same Redis are listed too
        JsonNode mine = null;
        for (JsonNode listed : api.get("queues")) {
            mine = listed.get("queue").asText().equals(queue) ? listed : mine;
        }
        assertThat(mine).as("the worker's queue in /api/queues").isNotNull();
        assertThat(mine.get("completed").asLong()).isEqualTo(10);

        // a worker with more attempts takes over; the replayed job now completes on its third attempt
        worker.process().destroy();
        assertThat(worker.await(Duration.ofSeconds(60)).exitCode()).isZero();
        BatonCli.Running patient = cli.with("BATON_ADMIN_ADDRESS", "off")
                .start("worker", "--queue", queue, "--handler", "orders", "--max-attempts", "5");
        BatonCli.Result replay = cli.run("dlq", "replay", "--queue", queue, "--all");
        assertThat(replay.stdout()).contains("replayed 1 dead letters");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode stats = stats(cli, queue);
            assertThat(stats.get("completed").asLong()).isEqualTo(11);
            assertThat(stats.get("dead").asLong()).isZero();
        });
        patient.process().destroy();
        assertThat(patient.await(Duration.ofSeconds(60)).exitCode()).isZero();
        Ledger ledger = new Ledger(TestEndpoints.jdbcUrl(), schema);
        assertThat(ledger.completions(queue)).isEqualTo(11);
        assertThat(cli.run("job", "order-stubborn", "--queue", queue).stdout()).contains("state: completed");
        assertThat(stats(cli, queue).get("dead_in_ledger").isEmpty()).isTrue();
        assertThat(ledger.distinctShippedJobs("order-")).isEqualTo(11);
        assertThat(ledger.shipments("order-")).isEqualTo(11);
    }

    @Test
    void aBadLineEnqueuesNothingAndNamesItsLineNumber() throws IOException {
        String queue = TestEndpoints.unique("bad").replace('_', '-');
        BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                "BATON_MODE", "at-least-once"), dir);
        String lines = "{\"job_id\": \"a\", \"payload\": \"x\"}\n{\"job_id\": \"b\", \"payload\": \"y\"}\n"
                + "{\"job_id\": \"c\", \"payload\": \n";

        BatonCli.Result result = cli.runWithInput(lines, "enqueue", "--queue", queue, "--file", "-");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.stderr()).contains("stdin line 3", "nothing was enqueued");
        BatonCli.Result stats = cli.run("stats", "--queue", queue, "--json");
        assertThat(stats.exitCode()).as(stats.toString()).isZero();
        assertThat(JSON.readTree(stats.stdout()).get("queues").get(0).get("length").asLong()).isZero();
    }

    private static JsonNode stats(BatonCli cli, String queue) throws IOException {
        BatonCli.Result result = cli.run("stats", "--queue", queue, "--json");
        assertThat(result.exitCode()).as(result.toString()).isZero();
        return JSON.readTree(result.stdout()).get("queues").get(0);
    }

    private static String awaitAdmin(BatonCli.Running worker) {
        String[] address = new String[1];
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(worker.process().isAlive()).as(worker.stderr()).isTrue();
            Matcher matcher = ADMIN.matcher(worker.stderr());
            assertThat(matcher.find()).as(worker.stderr()).isTrue();
            address[0] = matcher.group(1);
            assertThat(worker.stderr()).contains("consuming");
        });
        return address[0];
    }

    private static HttpResponse<String> get(HttpClient http, String address, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + address + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
