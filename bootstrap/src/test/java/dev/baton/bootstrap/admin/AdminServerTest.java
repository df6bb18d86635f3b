package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.inject.multibindings.Multibinder;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.bootstrap.wiring.HealthCheck;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The admin endpoints over a Baton on the in-memory adapters. */
class AdminServerTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void readinessFollowsTheHealthChecksAndMetricsAndQueuesAreServed() throws Exception {
        AtomicBoolean databaseUp = new AtomicBoolean(true);
        try (Baton baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", "reports"),
                        Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()))
                .module(binder -> Multibinder.newSetBinder(binder, HealthCheck.class).addBinding()
                        .toInstance(new HealthCheck("database", databaseUp::get)))
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

    private HttpResponse<String> get(InetSocketAddress address, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
