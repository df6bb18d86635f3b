package dev.baton.bootstrap.admin;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.RedisClient;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admin JSON API on real Redis and PostgreSQL, through the JDK's HTTP client: queues, a job's whereabouts, the
 * ledger search, dead letters filtered, replayed and purged (once each, whatever is asked twice), and bad input that
 * answers 400 or 404 and changes nothing.
 */
class AdminApiTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String VIEWER_PASSWORD = "api-view-3x";
    private static final String OPERATOR_PASSWORD = "api-oper-8y";

    private final QueueName queue = QueueName.of(TestEndpoints.unique("admin").replace('_', '-'));
    private final QueueName elsewhere = QueueName.of(queue.value() + "-elsewhere");
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final AtomicBoolean downstreamUp = new AtomicBoolean();

    @AfterEach
    void forgetQueue() {
        RedisClient client = RedisClient.create(TestEndpoints.redisUri());
        try (var connection = client.connect()) {
            connection.sync().del(key("stream"), key("delayed"), key("dead"), key("dead-jobs"),
                    "baton:{" + elsewhere.value() + "}:stream");
        } finally {
            client.shutdown();
        }
    }

    @Test
    void aCancelledJobIsShownAndSearchedAsCancelled() throws Exception {
        try (Baton baton = baton()) {
            AdminClient viewer = AdminClient.anonymous(baton.startAdmin().orElseThrow()).as("viewer", VIEWER_PASSWORD);
            baton.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("doomed-1"), "{}").after(Duration.ofHours(1)));
            baton.cancel(queue, JobId.of("doomed-1"));

            JsonNode job = json(viewer.get("/api/jobs/doomed-1?queue=" + queue.value()));
            assertThat(job.get("state").asText()).isEqualTo("cancelled");
            assertThat(job.get("finished_at").asText()).isNotEmpty();
            JsonNode page = json(viewer.get(queuePath("/outcomes?state=cancelled")));
            assertThat(page.get("items")).singleElement().satisfies(item -> {
                assertThat(item.get("job_id").asText()).isEqualTo("doomed-1");
                assertThat(item.get("state").asText()).isEqualTo("cancelled");
            });
            assertThat(json(viewer.get(queuePath("/outcomes?state=purged"))).get("items")).isEmpty();
        }
    }

    @Test
    void theApiShowsQueuesJobsOutcomesAndReplaysOrPurgesTheDeadOnce() throws Exception {
        try (Baton baton = baton()) {
            AdminClient anonymous = AdminClient.anonymous(baton.startAdmin().orElseThrow());
            AdminClient viewer = anonymous.as("viewer", VIEWER_PASSWORD);
            AdminClient operator = anonymous.as("operator", OPERATOR_PASSWORD);
            for (String id : List.of("ok-1", "ok-2", "bad-1", "bad-2", "bad-3", "flaky-1")) {
                baton.enqueue(queue, JobId.of(id), "{}");
            }
            baton.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("later-1"), "{}").after(Duration.ofHours(1)));
            baton.enqueue(elsewhere, JobId.of("unworked-1"), "{}");
            RunningWorker worker = baton.start(queue.value());
            await().atMost(WAIT).until(() -> worker.counters().completed() == 2
                    && worker.counters().deadLettered() == 4);

            JsonNode queues = json(viewer.get("/api/queues"));
            JsonNode mine = find(queues.get("queues"), "queue", queue.value());
            assertThat(mine.get("completed_last_hour").asLong()).isEqualTo(2);
            assertThat(mine.get("dead").asLong()).isEqualTo(4);
            assertThat(find(queues.get("queues"), "queue", elsewhere.value()).get("length").asLong())
                    .as("a queue only Redis knows").isEqualTo(1);
            JsonNode detail = json(viewer.get(queuePath("")));
            assertThat(detail.get("delayed_jobs")).singleElement().satisfies(delayed -> {
                assertThat(delayed.get("job_id").asText()).isEqualTo("later-1");
                assertThat(delayed.get("due_at").asText()).isNotEmpty();
            });
            assertThat(detail.get("partitions")).as("one partition").isEmpty();
            assertThat(viewer.get("/api/queues/nobody-" + queue.value()).statusCode()).isEqualTo(404);
            assertThat(viewer.get("/api/queues/bad%20name!").statusCode()).isEqualTo(400);

            JsonNode completed = json(viewer.get("/api/jobs/ok-1?queue=" + queue.value()));
            assertThat(completed.get("state").asText()).isEqualTo("completed");
            assertThat(completed.get("result").asText()).isEqualTo("done ok-1");
            JsonNode dead = json(viewer.get("/api/jobs/bad-1?queue=" + queue.value()));
            assertThat(dead.get("state").asText()).isEqualTo("dead");
            assertThat(dead.get("in_redis").asBoolean()).isTrue();
            assertThat(dead.get("error").get("type").asText()).isEqualTo(NonRetryableException.class.getName());
            assertThat(json(viewer.get("/api/jobs/later-1?queue=" + queue.value())).get("state").asText())
                    .isEqualTo("delayed");
            assertThat(viewer.get("/api/jobs/nobody?queue=" + queue.value()).statusCode()).isEqualTo(404);
            assertThat(viewer.get("/api/jobs/ok-1").statusCode()).as("no queue").isEqualTo(400);

            List<String> deadIds = new ArrayList<>();
            JsonNode page = json(viewer.get(queuePath("/outcomes?state=dead&limit=3")));
            page.get("items").forEach(item -> deadIds.add(item.get("job_id").asText()));
            JsonNode rest = json(viewer.get(queuePath("/outcomes?state=dead&limit=3&before="
                    + page.get("next").asText())));
            rest.get("items").forEach(item -> deadIds.add(item.get("job_id").asText()));
            assertThat(deadIds).containsExactlyInAnyOrder("bad-1", "bad-2", "bad-3", "flaky-1");
            assertThat(rest.get("next").isNull()).isTrue();
            assertThat(ids(json(viewer.get(queuePath("/outcomes?reason=exhausted"))))).containsExactly("flaky-1");
            assertThat(ids(json(viewer.get(queuePath("/outcomes?error=SWITCHED%20off")))))
                    .containsExactlyInAnyOrder("bad-1", "bad-2", "bad-3");
            assertThat(ids(json(viewer.get(queuePath("/outcomes?state=completed")))))
                    .containsExactlyInAnyOrder("ok-1", "ok-2");
            for (String bad : List.of("state=gone", "reason=tired", "from=yesterday", "before=%21%21", "limit=0",
                    "limit=501")) {
                HttpResponse<String> refused = viewer.get(queuePath("/outcomes?" + bad));
                assertThat(refused.statusCode()).as(bad).isEqualTo(400);
                assertThat(json(refused).get("error").asText()).isNotEmpty();
            }

            assertThat(ids(json(viewer.get(queuePath("/dead?reason=non_retryable"))))).hasSize(3);
            assertThat(ids(json(viewer.get(queuePath("/dead?error_type=" + IllegalStateException.class.getName())))))
                    .containsExactly("flaky-1");
            JsonNode firstDead = json(viewer.get(queuePath("/dead?limit=1")));
            assertThat(firstDead.get("items")).hasSize(1);
            assertThat(json(viewer.get(queuePath("/dead?limit=10&before=" + firstDead.get("next").asText())))
                    .get("items")).hasSize(3);

            for (String body : List.of("{", "[]", "{\"ids\": []}", "{\"ids\": [7]}", "{\"all\": false}",
                    "{\"filter\": {\"colour\": \"red\"}}", "{\"filter\": {\"reason\": \"tired\"}}",
                    "{\"all\": true, \"ids\": [\"1-0\"]}", "{\"everything\": true}")) {
                HttpResponse<String> refused = operator.post(queuePath("/dead/replay"), body);
                assertThat(refused.statusCode()).as(body).isEqualTo(400);
                assertThat(refused.body()).as(body).contains("\"error\"").doesNotContain("Exception:", "\tat ");
            }
            assertThat(operator.post("/api/queues/nobody-" + queue.value() + "/dead/purge", "{\"all\": true}")
                    .statusCode()).isEqualTo(404);
            assertThat(viewer.post(queuePath("/dead/replay"), "{\"all\": true}").statusCode()).isEqualTo(403);
            assertThat(json(viewer.get(queuePath(""))).get("dead").asLong()).as("nothing changed").isEqualTo(4);

            downstreamUp.set(true);
            String bad1 = deadLetterId(viewer, "bad-1");
            assertThat(replay(operator, "{\"ids\": [\"" + bad1 + "\"]}")).isEqualTo(1);
            assertThat(replay(operator, "{\"ids\": [\"" + bad1 + "\"]}")).isZero();
            String filter = "{\"filter\": {\"reason\": \"NON_RETRYABLE\"}}";
            assertThat(replay(operator, filter)).isEqualTo(2);
            assertThat(replay(operator, filter)).as("the same filter again").isZero();
            JsonNode purged = json(operator.post(queuePath("/dead/purge"), "{\"all\": true}"));
            assertThat(purged.get("purged").asInt()).isEqualTo(1);
            assertThat(replay(operator, "{\"all\": true}")).isZero();

            await().atMost(WAIT).until(() -> worker.counters().completed() == 5);
            assertThat(runs.get("bad-1").get()).as("dead once, replayed once").isEqualTo(2);
            assertThat(runs.get("bad-2").get()).isEqualTo(2);
            assertThat(runs.get("bad-3").get()).isEqualTo(2);
            assertThat(json(viewer.get("/api/jobs/flaky-1?queue=" + queue.value())).get("state").asText())
                    .isEqualTo("purged");
            assertThat(json(viewer.get("/api/jobs/bad-2?queue=" + queue.value())).get("state").asText())
                    .isEqualTo("completed");
            assertThat(anonymous.received()).allSatisfy(text -> assertThat(text)
                    .doesNotContain(VIEWER_PASSWORD).doesNotContain(OPERATOR_PASSWORD));
        }
    }

    private int replay(AdminClient operator, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = operator.post(queuePath("/dead/replay"), body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response).get("replayed").asInt();
    }

    private String deadLetterId(AdminClient viewer, String jobId) throws IOException, InterruptedException {
        JsonNode items = json(viewer.get(queuePath("/dead?limit=100"))).get("items");
        return find(items, "job_id", jobId).get("id").asText();
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(item -> ids.add(item.get("job_id").asText()));
        return ids;
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode element : array) {
            if (element.get(field).asText().equals(value)) {
                return element;
            }
        }
        throw new AssertionError("no " + field + "=" + value + " in " + array);
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return new ObjectMapper().readTree(response.body());
    }

    private String queuePath(String rest) {
        return "/api/queues/" + queue.value() + rest;
    }

    private String key(String name) {
        return "baton:{" + queue.value() + "}:" + name;
    }

    private Baton baton() {
        JobHandler handler = context -> {
            String id = context.job().id().value();
            runs.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            if (id.startsWith("bad") && !downstreamUp.get()) {
                throw new NonRetryableException("refunds are switched off");
            }
            if (id.startsWith("flaky")) {
                throw new IllegalStateException("flaky downstream");
            }
            return Optional.of("done " + id);
        };
        return Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_SCHEMA", TestEndpoints.unique("admin"),
                        "BATON_BACKOFF_INITIAL", "50ms", "BATON_BACKOFF_MAX", "200ms", "BATON_MAX_ATTEMPTS", "3",
                        "BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_ADMIN_VIEWER_PASSWORD", VIEWER_PASSWORD,
                        "BATON_ADMIN_OPERATOR_PASSWORD", OPERATOR_PASSWORD), Optional.empty(), Map.of()))
                .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl())
                .handler(queue.value(), handler).build();
    }
}
