package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.AuditTrail;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.bootstrap.testing.LogCapture;
import dev.baton.bootstrap.wiring.Adapters;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.AuditRecord;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The audit trail through the admin server: every request to a change route is recorded with who, from where, what,
 * how many and the answer's status, refused ones included; only the operator reads it; a trail that fails never fails
 * the change; without a ledger the API says nothing is recorded.
 */
class AuditTrailHttpTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String VIEWER_PASSWORD = "audit-view-4k";
    private static final String OPERATOR_PASSWORD = "audit-oper-7m";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final LogCapture log = new LogCapture();

    @Nested
    class WithATrail {
        @Test
        void replayPurgeAndPauseAreRecordedWithWhoAndHowMany() throws Exception {
            try (Baton baton = baton(new InMemoryAdapters(Clock.systemUTC()).ports())) {
                AdminClient operator = client(baton).as("operator", OPERATOR_PASSWORD);
                deadLetters(baton, "bad-1", "bad-2", "bad-3");

                assertThat(operator.post("/api/queues/mail/dead/replay",
                        "{\"filter\": {\"reason\": \"NON_RETRYABLE\"}}").statusCode()).isEqualTo(200);
                assertThat(operator.post("/api/queues/mail/pause", "{}").statusCode()).isEqualTo(200);
                assertThat(operator.post("/api/queues/mail/dead/purge", "{\"all\": true}").statusCode())
                        .isEqualTo(200);

                JsonNode items = awaitEntries(operator, 3);
                assertThat(items).extracting(item -> item.get("action").asText())
                        .containsExactly("queues/dead/purge", "queues/pause", "queues/dead/replay");
                JsonNode replay = items.get(2);
                assertThat(replay.get("user").asText()).isEqualTo("operator");
                assertThat(replay.get("client").asText()).isEqualTo("127.0.0.1");
                assertThat(replay.get("method").asText()).isEqualTo("POST");
                assertThat(replay.get("path").asText()).isEqualTo("/api/queues/mail/dead/replay");
                assertThat(replay.get("queue").asText()).isEqualTo("mail");
                assertThat(replay.get("summary").asText()).isEqualTo("{\"filter\":{\"reason\":\"NON_RETRYABLE\"}}");
                assertThat(replay.get("affected").asLong()).isEqualTo(3);
                assertThat(replay.get("status").asInt()).isEqualTo(200);
                assertThat(Instant.parse(replay.get("at").asText())).isBeforeOrEqualTo(Instant.now());
                assertThat(items.get(1).get("affected").asLong()).as("one queue paused").isEqualTo(1);
                assertThat(items.get(0).get("affected").asLong()).as("replayed: none left to purge").isZero();
            }
        }

        @Test
        void aJobActionIsRecordedWithWhatItChanged() throws Exception {
            try (Baton baton = baton(new InMemoryAdapters(Clock.systemUTC()).ports())) {
                AdminClient operator = client(baton).as("operator", OPERATOR_PASSWORD);
                baton.enqueue(QueueName.of("mail"), JobId.of("w-1"), "{}");

                assertThat(operator.post("/api/queues/mail/jobs/w-1/cancel", "{}").statusCode()).isEqualTo(200);
                assertThat(operator.post("/api/queues/mail/jobs/w-1/cancel", "{}").statusCode()).isEqualTo(200);

                JsonNode items = awaitEntries(operator, 2);
                assertThat(items).extracting(item -> item.get("action").asText())
                        .containsOnly("queues/jobs/cancel");
                assertThat(items.get(1).get("affected").asLong()).as("cancelled").isEqualTo(1);
                assertThat(items.get(0).get("affected").asLong()).as("cancelled before").isZero();
            }
        }

        @Test
        void aRefusedOrFailedChangeIsRecordedWithItsStatus() throws Exception {
            try (Baton baton = baton(new InMemoryAdapters(Clock.systemUTC()).ports())) {
                AdminClient anonymous = client(baton);
                AdminClient operator = anonymous.as("operator", OPERATOR_PASSWORD);

                assertThat(anonymous.as("viewer", VIEWER_PASSWORD).post("/api/queues/mail/pause", "{}")
                        .statusCode()).isEqualTo(403);
                assertThat(operator.post("/api/queues/mail/dead/purge", "{\"filter\": {}}").statusCode())
                        .isEqualTo(400);
                assertThat(anonymous.post("/api/queues/mail/pause", "{}").statusCode())
                        .as("no login: the throttle's business, not the trail's").isEqualTo(401);

                JsonNode items = awaitEntries(operator, 2);
                assertThat(items.get(0).get("status").asInt()).isEqualTo(400);
                assertThat(items.get(0).get("affected").isNull()).isTrue();
                assertThat(items.get(1).get("user").asText()).isEqualTo("viewer");
                assertThat(items.get(1).get("status").asInt()).isEqualTo(403);
                assertThat(items.get(1).get("summary").asText()).as("a refused body is never read").isEmpty();
            }
        }

        @Test
        void pagesGoNewestFirstByCursor() throws Exception {
            try (Baton baton = baton(new InMemoryAdapters(Clock.systemUTC()).ports())) {
                AdminClient operator = client(baton).as("operator", OPERATOR_PASSWORD);
                operator.post("/api/queues/mail/pause", "{}");
                operator.post("/api/queues/mail/resume", "{}");
                awaitEntries(operator, 2);

                JsonNode first = json(operator.get("/api/audit?limit=1"));
                JsonNode second = json(operator.get("/api/audit?limit=1&before=" + first.get("next").asText()));

                assertThat(first.get("items").get(0).get("action").asText()).isEqualTo("queues/resume");
                assertThat(second.get("items").get(0).get("action").asText()).isEqualTo("queues/pause");
                assertThat(second.get("next").isNull()).isTrue();
            }
        }

        @Test
        void onlyTheOperatorReadsAndBadPagingIsA400() throws Exception {
            try (Baton baton = baton(new InMemoryAdapters(Clock.systemUTC()).ports())) {
                AdminClient anonymous = client(baton);
                AdminClient operator = anonymous.as("operator", OPERATOR_PASSWORD);

                assertThat(anonymous.as("viewer", VIEWER_PASSWORD).get("/api/audit").statusCode()).isEqualTo(403);
                for (String bad : List.of("before=abc", "before=0", "before=-3", "limit=0", "limit=501",
                        "limit=x", "after=3")) {
                    HttpResponse<String> refused = operator.get("/api/audit?" + bad);
                    assertThat(refused.statusCode()).as(bad).isEqualTo(400);
                    assertThat(refused.body()).as(bad).contains("\"error\"");
                }
            }
        }
    }

    @Test
    void aTrailThatFailsNeverFailsTheChange() throws Exception {
        try (Baton baton = baton(new InMemoryAdapters(Clock.systemUTC()).ports(Optional.of(new DownTrail())))) {
            AdminClient operator = client(baton).as("operator", OPERATOR_PASSWORD);

            assertThat(operator.post("/api/queues/mail/pause", "{}").statusCode()).isEqualTo(200);

            await().atMost(WAIT).until(() -> log.events().stream().anyMatch(event -> event.getLevel() == Level.WARN
                    && event.getFormattedMessage().startsWith("audit entry not written user=operator")));
            assertThat(log.events()).anyMatch(event -> event.getFormattedMessage().startsWith(
                    "admin change user=operator"));
        }
    }

    @Test
    void withoutALedgerTheApiSaysNothingIsRecorded() throws Exception {
        try (Baton baton = baton(new InMemoryAdapters(Clock.systemUTC()).ports(Optional.empty()))) {
            AdminClient operator = client(baton).as("operator", OPERATOR_PASSWORD);
            assertThat(operator.post("/api/queues/mail/pause", "{}").statusCode()).isEqualTo(200);

            JsonNode page = json(operator.get("/api/audit"));

            assertThat(page.get("recorded").asBoolean()).isFalse();
            assertThat(page.get("items")).isEmpty();
        }
    }

    private static JsonNode awaitEntries(AdminClient operator, int count) {
        return await().atMost(WAIT).until(() -> {
            JsonNode page = json(operator.get("/api/audit"));
            assertThat(page.get("recorded").asBoolean()).isTrue();
            return page.get("items");
        }, items -> items.size() == count);
    }

    /** Dead letters of jobs run once by a worker that then stops, so that none replayed runs again. */
    private static void deadLetters(Baton baton, String... ids) {
        try (RunningWorker worker = baton.start("mail")) {
            for (String id : ids) {
                baton.enqueue(QueueName.of("mail"), JobId.of(id), "{}");
            }
            await().atMost(WAIT).until(() -> worker.counters().deadLettered() == ids.length);
        }
    }

    private static AdminClient client(Baton baton) {
        return AdminClient.anonymous(baton.startAdmin().orElseThrow());
    }

    private static Baton baton(Adapters adapters) {
        return Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", "mail",
                        "BATON_ADMIN_VIEWER_PASSWORD", VIEWER_PASSWORD,
                        "BATON_ADMIN_OPERATOR_PASSWORD", OPERATOR_PASSWORD), Optional.empty(), Map.of()))
                .adapters(adapters)
                .handler("mail", context -> {
                    throw new NonRetryableException("mail is switched off");
                })
                .shutdownHook(false)
                .build();
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** A trail whose PostgreSQL is down. */
    private static final class DownTrail implements AuditTrail {
        @Override
        public void record(AuditEntry entry) {
            throw new LedgerUnavailableException("no connection to PostgreSQL", null);
        }

        @Override
        public List<AuditRecord> recent(Optional<Long> before, int limit) {
            throw new LedgerUnavailableException("no connection to PostgreSQL", null);
        }

        @Override
        public long forgetBefore(Instant cutoff) {
            return 0;
        }
    }
}
