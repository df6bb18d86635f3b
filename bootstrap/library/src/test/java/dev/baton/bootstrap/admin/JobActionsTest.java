package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.testing.MutableClock;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The actions on one job over HTTP ({@link JobActionEndpoints}), on a Baton of the in-memory adapters. */
class JobActionsTest {
    private static final String VIEWER_PASSWORD = "act-view-3q";
    private static final String OPERATOR_PASSWORD = "act-oper-8z";
    private static final QueueName MAIL = QueueName.of("mail");
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final CountDownLatch release = new CountDownLatch(1);
    private Baton baton;
    private AdminClient operator;
    private AdminClient viewer;

    @BeforeEach
    void start() {
        baton = Baton.builder().config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0",
                        "BATON_QUEUES", "mail", "BATON_ADMIN_VIEWER_PASSWORD", VIEWER_PASSWORD,
                        "BATON_ADMIN_OPERATOR_PASSWORD", OPERATOR_PASSWORD), Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(clock).ports())
                .clock(clock)
                .handler("mail", context -> {
                    if (context.job().payload().equals("\"hold\"")) {
                        release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                    }
                    if (context.job().payload().equals("\"fail\"")) {
                        throw new NonRetryableException("refused");
                    }
                    return Optional.empty();
                })
                .build();
        AdminClient anonymous = AdminClient.anonymous(baton.startAdmin().orElseThrow());
        operator = anonymous.as("operator", OPERATOR_PASSWORD);
        viewer = anonymous.as("viewer", VIEWER_PASSWORD);
    }

    @AfterEach
    void stop() {
        release.countDown();
        baton.close();
    }

    @Nested
    class Cancel {
        @Test
        void aWaitingJobIsCancelledOnceThenAlreadyCancelled() throws Exception {
            enqueue("waiting", Optional.empty());

            HttpResponse<String> first = act("waiting", "cancel");
            HttpResponse<String> again = act("waiting", "cancel");

            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
            assertThat(json(first).get("answer").asText()).isEqualTo("cancelled");
            assertThat(json(again).get("answer").asText()).isEqualTo("already_cancelled");
            assertThat(state("waiting")).isEqualTo("cancelled");
        }

        @Test
        void aCompletedJobIsAConflict() throws Exception {
            completed("done");

            HttpResponse<String> refused = act("done", "cancel");

            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(refused.body()).contains("already_completed");
            assertThat(state("done")).isEqualTo("completed");
        }

        @Test
        void anUnknownJobIsNotFoundAndNotCancelled() throws Exception {
            assertThat(act("nobody", "cancel").statusCode()).isEqualTo(404);

            enqueue("nobody", Optional.empty());
            assertThat(state("nobody")).as("no cancel was recorded").isEqualTo("waiting");
        }
    }

    @Nested
    class RunNow {
        @Test
        void aDelayedJobBecomesDueAndRuns() throws Exception {
            enqueue("later", Optional.of(Duration.ofHours(1)));
            RunningWorker worker = baton.start("mail");

            HttpResponse<String> done = act("later", "run-now");

            assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
            assertThat(json(done).get("answer").asText()).isEqualTo("due_now");
            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
            assertThat(state("later")).isEqualTo("completed");
        }

        @Test
        void aRunningJobIsAConflict() throws Exception {
            enqueue("held", Optional.empty(), "\"hold\"");
            baton.start("mail");
            await().atMost(WAIT).until(() -> state("held").equals("running"));

            HttpResponse<String> refused = act("held", "run-now");

            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(json(refused).get("error").asText()).contains("is running");
        }

        @Test
        void anUnknownJobIsNotFound() throws Exception {
            assertThat(act("nobody", "run-now").statusCode()).isEqualTo(404);
        }
    }

    @Nested
    class Delete {
        @Test
        void aDelayedJobIsRemovedAndThenUnknown() throws Exception {
            enqueue("later", Optional.of(Duration.ofHours(1)));

            HttpResponse<String> deleted = act("later", "delete");

            assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
            assertThat(json(deleted).get("answer").asText()).isEqualTo("deleted");
            assertThat(viewer.get("/api/jobs/later?queue=mail").statusCode()).isEqualTo(404);
            assertThat(act("later", "delete").statusCode()).isEqualTo(404);
        }

        @Test
        void aWaitingOrCompletedJobIsAConflict() throws Exception {
            enqueue("waiting", Optional.empty());

            assertThat(act("waiting", "delete").statusCode()).isEqualTo(409);
            assertThat(state("waiting")).isEqualTo("waiting");
            completed("done");
            assertThat(act("done", "delete").statusCode()).isEqualTo(409);
        }

        @Test
        void anIdWithASlashIsOneJob() throws Exception {
            enqueue("orders/7", Optional.of(Duration.ofHours(1)));

            assertThat(act("orders%2F7", "delete").statusCode()).isEqualTo(200);
        }
    }

    @Nested
    class Access {
        @Test
        void theViewerIsRefusedEveryAction() throws Exception {
            enqueue("later", Optional.of(Duration.ofHours(1)));

            for (String action : new String[] {"cancel", "run-now", "delete"}) {
                HttpResponse<String> refused = viewer.post("/api/queues/mail/jobs/later/" + action, "{}");
                assertThat(refused.statusCode()).as(action).isEqualTo(403);
            }
            assertThat(state("later")).isEqualTo("delayed");
        }

        @Test
        void aGetIsNotAnAction() throws Exception {
            assertThat(operator.get("/api/queues/mail/jobs/later/cancel").statusCode()).isEqualTo(405);
        }
    }

    private void enqueue(String id, Optional<Duration> delay) {
        enqueue(id, delay, "{}");
    }

    private void enqueue(String id, Optional<Duration> delay, String payload) {
        EnqueueJobUseCase.Command now = EnqueueJobUseCase.Command.now(MAIL, JobId.of(id), payload);
        baton.enqueue(delay.map(now::after).orElse(now));
    }

    private void completed(String id) {
        enqueue(id, Optional.empty());
        baton.start("mail");
        await().atMost(WAIT).until(() -> state(id).equals("completed"));
    }

    private HttpResponse<String> act(String id, String action) throws IOException, InterruptedException {
        return operator.post("/api/queues/mail/jobs/" + id + "/" + action, "{}");
    }

    private String state(String id) throws IOException, InterruptedException {
        return json(viewer.get("/api/jobs/" + id + "?queue=mail")).get("state").asText();
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return new ObjectMapper().readTree(response.body());
    }
}
