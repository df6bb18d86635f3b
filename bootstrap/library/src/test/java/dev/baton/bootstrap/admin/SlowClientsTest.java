package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin server, with viewer and operator passwords, under clients that hold their sockets: some never finish
 * their request's head, others open the event stream and never read it. Health and pages go on answering.
 */
class SlowClientsTest {
    private static final String VIEWER_PASSWORD = "view-pw-S4";
    private static final String OPERATOR_PASSWORD = "oper-pw-S5";

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<RawConnection> held = new ArrayList<>();
    private Baton baton;
    private InetSocketAddress address;

    @BeforeEach
    void start() {
        baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", "mail",
                        "BATON_ADMIN_VIEWER_PASSWORD", VIEWER_PASSWORD,
                        "BATON_ADMIN_OPERATOR_PASSWORD", OPERATOR_PASSWORD), Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .build();
        address = baton.startAdmin().orElseThrow();
    }

    @AfterEach
    void stop() throws IOException {
        releaseHeld();
        baton.close();
    }

    @Test
    void healthAnswersWhileSocketsAreHeldAndPagesAfter() throws Exception {
        for (int i = 0; i < 8; i++) {
            hold().send("GET / HTTP/1.1\r\n");
        }
        for (int i = 0; i < 32; i++) {
            hold().send(RawConnection.head("GET", "/api/events", authorization("viewer", VIEWER_PASSWORD)));
        }

        for (int round = 0; round < 3; round++) {
            assertThat(probe("/health/live").statusCode()).isEqualTo(200);
            assertThat(probe("/health/ready").statusCode()).isEqualTo(200);
        }
        releaseHeld();
        await().atMost(RawConnection.PATIENCE).untilAsserted(() -> {
            HttpResponse<String> page = get("/", "viewer", VIEWER_PASSWORD);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>Baton · Overview</title>");
        });
        await().atMost(RawConnection.PATIENCE).untilAsserted(() -> {
            HttpResponse<InputStream> stream = http.send(request("/api/events", "viewer", VIEWER_PASSWORD).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            stream.body().close();
            assertThat(stream.statusCode()).as("the viewer's streams were freed").isEqualTo(200);
        });
    }

    @Test
    void aViewerOverItsStreamsGets429AndTheOperatorStreams() throws Exception {
        List<String> statuses = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            statuses.add(hold().send(RawConnection.head("GET", "/api/events",
                    authorization("viewer", VIEWER_PASSWORD))).statusLine());
        }

        assertThat(statuses).filteredOn(line -> line.equals("HTTP/1.1 200 OK"))
                .hasSize(EventStream.STREAMS_PER_USER);
        assertThat(statuses).filteredOn(line -> line.startsWith("HTTP/1.1 429 "))
                .hasSize(32 - EventStream.STREAMS_PER_USER);
        String refusal = hold().send(RawConnection.head("GET", "/api/events",
                authorization("viewer", VIEWER_PASSWORD))).rest();
        assertThat(refusal).contains("viewer already has " + EventStream.STREAMS_PER_USER + " event streams open");
        HttpResponse<InputStream> operators = http.send(request("/api/events", "operator", OPERATOR_PASSWORD)
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(operators.statusCode()).as("the viewer cannot lock the operator out").isEqualTo(200);
        operators.body().close();
    }

    private RawConnection hold() {
        RawConnection connection = RawConnection.to(address);
        held.add(connection);
        return connection;
    }

    private void releaseHeld() throws IOException {
        for (RawConnection connection : held) {
            connection.close();
        }
        held.clear();
    }

    /** A probe as Kubernetes sends it, patient: the test fails on no answer, never on a slow one. */
    private HttpResponse<String> probe(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(RawConnection.PATIENCE).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String user, String password) throws Exception {
        return http.send(request(path, user, password).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path, String user, String password) {
        return HttpRequest.newBuilder(uri(path)).timeout(RawConnection.PATIENCE)
                .header("Authorization", authorization(user, password).substring("Authorization: ".length()));
    }

    private static String authorization(String user, String password) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + address.getPort() + path);
    }
}
