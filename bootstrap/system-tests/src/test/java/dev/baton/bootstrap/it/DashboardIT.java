package dev.baton.bootstrap.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.testing.BatonCli;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton dashboard}: the admin server alone against Redis and PostgreSQL, stopped by SIGTERM with exit 0. */
class DashboardIT {
    private static final String VIEWER_PASSWORD = "dash-view-5k";

    @TempDir
    Path dir;

    @Test
    void theDashboardServesTheApiWithoutWorkersUntilSigterm() throws Exception {
        String queue = TestEndpoints.unique("dash").replace('_', '-');
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                "BATON_JDBC_URL", TestEndpoints.jdbcUrl(), "BATON_SCHEMA", TestEndpoints.unique("dash"),
                "BATON_QUEUES", queue, "BATON_ADMIN_ADDRESS", "127.0.0.1:" + port,
                "BATON_ADMIN_VIEWER_PASSWORD", VIEWER_PASSWORD), dir);
        HttpClient http = HttpClient.newHttpClient();
        URI queues = URI.create("http://127.0.0.1:" + port + "/api/queues");
        String viewer = "Basic " + Base64.getEncoder().encodeToString(("viewer:" + VIEWER_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));

        BatonCli.Running dashboard = cli.start("dashboard");
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/health/ready")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
        HttpResponse<String> seen = http.send(HttpRequest.newBuilder(queues).header("Authorization", viewer).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(queues).build(),
                HttpResponse.BodyHandlers.ofString());
        dashboard.process().destroy(); // SIGTERM
        BatonCli.Result stopped = dashboard.await(Duration.ofSeconds(30));

        assertThat(seen.statusCode()).isEqualTo(200);
        assertThat(seen.body()).contains("\"queue\" : \"" + queue + "\"", "\"completed_last_hour\" : 0");
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(stopped.exitCode()).as(stopped.toString()).isZero();
        assertThat(stopped.stderr()).contains("dashboard on http://127.0.0.1:" + port, "dashboard stopped")
                .doesNotContain(VIEWER_PASSWORD);
    }
}
