package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.SnoozeException;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.bootstrap.wiring.HealthCheck;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The admin endpoints over a Baton on the in-memory adapters; the access rules in {@code AdminAccessTest}. */
class AdminServerTest {
    private static final String OPERATOR_PASSWORD = "op-secret-7";
    private static final String OPERATOR = "Basic " + Base64.getEncoder().encodeToString(("operator:"
            + OPERATOR_PASSWORD).getBytes(StandardCharsets.UTF_8));
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void readinessFollowsTheHealthChecksAndMetricsAndQueuesAreServed() throws Exception {
        AtomicBoolean databaseUp = new AtomicBoolean(true);
        try (Baton baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", "reports"),
                        Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports(new HealthCheck("database", databaseUp::get)))
                .handler("mail", context -> Optional.empty())
                .build()) {
            InetSocketAddress address = baton.startAdmin().orElseThrow();
            RunningWorker worker = baton.start("mail");
            baton.enqueue(QueueName.of("mail"), JobId.of("m-1"), "hello");
            await().atMost(Duration.ofSeconds(10)).until(() -> worker.counters().completed() == 1);

            assertThat(get(address, "/health/live").statusCode()).isEqualTo(200);
            assertThat(get(address, "/health/ready").statusCode()).isEqualTo(200);
            databaseUp.set(false);
            HttpResponse<String> down = get(address, "/health/ready");
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.body()).contains("\"database\" : \"down\"");
            assertThat(get(address, "/metrics").body())
                    .contains("baton_jobs_enqueued_total{queue=\"mail\"} 1.0")
                    .contains("baton_jobs_completed_total{queue=\"mail\"} 1.0")
                    .contains("baton_job_wait_seconds_count{queue=\"mail\"} 1");
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(get(address, "/metrics").body())
                    .contains("baton_queue_length{queue=\"mail\"}").contains("baton_queue_pending{queue=\"reports\"}"));
            assertThat(get(address, "/api/queues").body()).contains("\"queue\" : \"mail\"", "\"queue\" : \"reports\"");
            assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort()
                    + "/metrics")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
        }
    }

    @Test
    void theOperatorsPostPausesAndResumesAQueueAndTheMetricsShowIt() throws Exception {
        QueueName mail = QueueName.of("mail");
        try (Baton baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0",
                        "BATON_ADMIN_OPERATOR_PASSWORD", OPERATOR_PASSWORD), Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .handler("mail", context -> {
                    if (context.job().snoozes() == 0) {
                        throw new SnoozeException(Duration.ofMillis(10));
                    }
                    return Optional.empty();
                })
                .build()) {
            InetSocketAddress address = baton.startAdmin().orElseThrow();
            RunningWorker worker = baton.start("mail");

            HttpResponse<String> paused = post(address, "/api/queues/mail/pause", "application/json");

            assertThat(paused.statusCode()).isEqualTo(200);
            assertThat(paused.body()).contains("\"queue\" : \"mail\"", "\"paused\" : true");
            await().atMost(Duration.ofSeconds(10)).until(() -> worker.pausedQueues().contains(mail));
            assertThat(get(address, "/api/queues").body()).contains("\"paused\" : true");
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(get(address, "/metrics").body())
                    .contains("baton_queue_paused{queue=\"mail\"} 1.0"));
            assertThat(post(address, "/api/queues/mail/pause", "text/plain").statusCode())
                    .as("a cross-origin form cannot pause").isEqualTo(415);
            assertThat(post(address, "/api/queues/mail/stop", "application/json").statusCode()).isEqualTo(404);
            assertThat(post(address, "/api/queues/bad%20name!/pause", "application/json").statusCode())
                    .isEqualTo(400);
            assertThat(get(address, "/api/queues/mail/pause").statusCode()).isEqualTo(405);

            assertThat(post(address, "/api/queues/mail/resume", "application/json").body())
                    .contains("\"paused\" : false");
            baton.enqueue(mail, JobId.of("m-1"), "hello");

            await().atMost(Duration.ofSeconds(10)).until(() -> worker.counters().completed() == 1);
            assertThat(worker.counters().snoozed()).isEqualTo(1);
            assertThat(get(address, "/metrics").body()).contains("baton_jobs_snoozed_total{queue=\"mail\"} 1.0");
        }
    }

    /** In memory, one no-op handler of queue {@code mail}, the admin server at {@code address}, no passwords. */
    private static Baton mailBatonWithAdminAt(String address) {
        return Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", address), Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .handler("mail", context -> Optional.empty())
                .build();
    }

    @Nested
    class WithoutPasswords {
        @Test
        void aPostChangesNothingAndNonLoopbackServesOnlyHealthAndMetrics() throws Exception {
            try (Baton baton = mailBatonWithAdminAt("0.0.0.0:0")) {
                InetSocketAddress address = baton.startAdmin().orElseThrow();

                HttpResponse<String> refused = post(address, "/api/queues/mail/pause", "application/json");

                assertThat(refused.statusCode()).isEqualTo(403);
                assertThat(refused.body()).contains("non-loopback");
                assertThat(get(address, "/api/queues").statusCode()).isEqualTo(403);
                assertThat(get(address, "/health/live").statusCode()).isEqualTo(200);
                assertThat(get(address, "/metrics").statusCode()).isEqualTo(200);
                assertThat(paused(baton)).as("nothing paused").isFalse();
            }
            try (Baton baton = mailBatonWithAdminAt("127.0.0.1:0")) {
                InetSocketAddress address = baton.startAdmin().orElseThrow();

                HttpResponse<String> refused = post(address, "/api/queues/mail/pause", "application/json");

                assertThat(refused.statusCode()).isEqualTo(403);
                assertThat(refused.body()).contains("no operator is configured");
                assertThat(get(address, "/api/queues").statusCode()).isEqualTo(200);
                assertThat(paused(baton)).as("nothing paused").isFalse();
            }
        }
    }

    @Test
    void theApplicationsRegistryGetsTheMetricsAndMetricsAnswers404() throws Exception {
        SimpleMeterRegistry applications = new SimpleMeterRegistry();
        try (Baton baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0"), Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .meterRegistry(applications)
                .build()) {
            InetSocketAddress address = baton.startAdmin().orElseThrow();
            baton.enqueue(QueueName.of("mail"), JobId.of("m-1"), "hello");

            assertThat(applications.get("baton.jobs.enqueued").counter().count()).isEqualTo(1.0);
            HttpResponse<String> metrics = get(address, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(404);
            assertThat(metrics.body()).contains("application's registry").hasLineCount(1);
        }
    }

    private static boolean paused(Baton baton) {
        return baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(QueueName.of("mail")))
                .stats().paused();
    }

    private HttpResponse<String> post(InetSocketAddress address, String path, String contentType)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                .header("Authorization", OPERATOR)
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(InetSocketAddress address, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                .header("Authorization", OPERATOR).build(), HttpResponse.BodyHandlers.ofString());
    }
}
