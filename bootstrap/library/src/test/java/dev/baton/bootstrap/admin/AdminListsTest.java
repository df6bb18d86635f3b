package dev.baton.bootstrap.admin;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What the admin API's lists show on real Redis and PostgreSQL when a queue or a dead letter is out of the ordinary:
 * a stray key where a queue's stream belongs, a large payload and a long error.
 */
class AdminListsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int LARGE = 1_000_000;

    private final QueueName queue = QueueName.of(TestEndpoints.unique("lists").replace('_', '-'));
    private final QueueName weird = QueueName.of(queue.value() + "-weird");
    private final RedisClient redis = RedisClient.create(TestEndpoints.redisUri());
    private final StatefulRedisConnection<String, String> connection = redis.connect();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger endpointsLog = (Logger) LoggerFactory.getLogger(QueueEndpoints.class);

    @BeforeEach
    void captureLogs() {
        log.start();
        endpointsLog.addAppender(log);
    }

    @AfterEach
    void forget() {
        endpointsLog.detachAppender(log);
        connection.sync().del(key(queue, "stream"), key(queue, "dead"), key(queue, "dead-jobs"), key(weird, "stream"));
        connection.close();
        redis.shutdown();
    }

    @Test
    void aStrayKeyOfAnotherTypeIsListedWithItsErrorAndLoggedOnce() throws Exception {
        try (Baton baton = baton()) {
            AdminClient viewer = AdminClient.anonymous(baton.startAdmin().orElseThrow());
            baton.enqueue(queue, JobId.of("fine-1"), "{}");
            connection.sync().set(key(weird, "stream"), "x");

            HttpResponse<String> first = viewer.get("/api/queues");
            HttpResponse<String> second = viewer.get("/api/queues");

            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
            JsonNode queues = json(first).get("queues");
            assertThat(find(queues, queue).get("length").asLong()).isEqualTo(1);
            assertThat(find(queues, weird).get("error").asText())
                    .isEqualTo("key " + key(weird, "stream") + " holds a string where the queue's stream belongs:"
                            + " rename or delete it");
            assertThat(find(queues, weird).has("length")).isFalse();
            assertThat(second.statusCode()).isEqualTo(200);
            assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN)
                    .singleElement().satisfies(event -> assertThat(event.getFormattedMessage())
                            .contains("queue " + weird.value() + " cannot be read"));
        }
    }

    @Test
    void aListCutsLargePayloadsAndLongErrorsAndOneIsReadWhole() throws Exception {
        String payload = "{\"blob\":\"" + "x".repeat(LARGE) + "\"}";
        try (Baton baton = baton()) {
            AdminClient viewer = AdminClient.anonymous(baton.startAdmin().orElseThrow());
            baton.enqueue(queue, JobId.of("huge-1"), payload);
            RunningWorker worker = baton.start(queue.value());
            await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1);

            HttpResponse<String> page = viewer.get(queuePath("/dead"));

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body().length()).as("the page, not the payload").isLessThan(20_000);
            JsonNode letter = json(page).get("items").get(0);
            JsonNode job = letter.get("job");
            assertThat(job.get("payload").asText()).hasSize(2_000).isEqualTo(payload.substring(0, 2_000));
            assertThat(job.get("payload_truncated").get("bytes").asInt()).isEqualTo(payload.length());
            assertThat(job.get("payload_truncated").get("chars").asInt()).isEqualTo(payload.length());
            assertThat(letter.get("error").get("message").asText()).hasSize(500);
            assertThat(letter.get("error").get("message_truncated").get("chars").asInt()).isEqualTo(2_000);

            HttpResponse<String> whole = viewer.get(queuePath("/dead/"
                    + URLEncoder.encode(letter.get("id").asText(), StandardCharsets.UTF_8)));
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(json(whole).get("job").get("payload").asText()).isEqualTo(payload);
            assertThat(json(whole).get("job").has("payload_truncated")).isFalse();
            assertThat(json(whole).get("error").get("message").asText()).hasSize(2_000);
            assertThat(viewer.get(queuePath("/dead/1-0")).statusCode()).isEqualTo(404);
            assertThat(viewer.get("/api/queues/nobody-" + queue.value() + "/dead").statusCode()).isEqualTo(404);
        }
    }

    private Baton baton() {
        return Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_SCHEMA", TestEndpoints.unique("lists"),
                        "BATON_ADMIN_ADDRESS", "127.0.0.1:0"), Optional.empty(), Map.of()))
                .set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl())
                .handler(queue.value(), context -> {
                    throw new NonRetryableException("refused: " + "e".repeat(3_000));
                }).build();
    }

    private static JsonNode find(JsonNode queues, QueueName name) {
        for (JsonNode element : queues) {
            if (element.get("queue").asText().equals(name.value())) {
                return element;
            }
        }
        throw new AssertionError("no queue " + name + " in " + queues);
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return new ObjectMapper().readTree(response.body());
    }

    private String queuePath(String rest) {
        return "/api/queues/" + queue.value() + rest;
    }

    private static String key(QueueName queue, String name) {
        return "baton:{" + queue.value() + "}:" + name;
    }
}
