package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dashboard's files and its event stream, over an admin server on the in-memory adapters. */
class DashboardHttpTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private Baton baton;
    private InetSocketAddress address;

    @BeforeEach
    void start() {
        baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", "mail"),
                        Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .handler("mail", context -> Optional.empty())
                .build();
        address = baton.startAdmin().orElseThrow();
    }

    @AfterEach
    void stop() {
        baton.close();
    }

    @Test
    void pagesScriptsAndTheChartLibraryAreServedTypedAndNothingElse() throws Exception {
        HttpResponse<String> index = get("/");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        assertThat(index.headers().firstValue("Cache-Control")).contains("no-cache");
        assertThat(index.body()).contains("<title>Baton · Overview</title>");
        assertThat(get("/dashboard/common.js").headers().firstValue("Content-Type"))
                .contains("text/javascript; charset=utf-8");
        assertThat(get("/dashboard/dashboard.css").headers().firstValue("Content-Type"))
                .contains("text/css; charset=utf-8");
        HttpResponse<String> chart = get("/dashboard/webjars/uplot/1.6.30/dist/uPlot.iife.min.js");
        assertThat(chart.statusCode()).isEqualTo(200);
        assertThat(chart.headers().firstValue("Cache-Control")).contains("public, max-age=86400");
        // every page names the library's files at a path that exists
        for (String page : List.of("/", "/dashboard/dead.html")) {
            for (String line : get(page).body().split("\n")) {
                if (line.contains("/dashboard/")) {
                    String path = line.replaceAll(".*(?:src|href)=\"([^\"]+)\".*", "$1");
                    assertThat(get(path).statusCode()).as(path).isEqualTo(200);
                }
            }
        }

        for (String path : List.of("/dashboard/missing.html", "/dashboard/../admin/AdminServer.class",
                "/dashboard/%2e%2e/%2e%2e/logback.xml", "/dashboard/webjars/../../dev/baton/bootstrap/Baton.class",
                "/dashboard//etc/passwd", "/dashboard/", "/index.html", "/dashboard/StaticFiles.class")) {
            assertThat(get(path).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(http.send(HttpRequest.newBuilder(uri("/")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
    }

    @Test
    void eventsReportThroughputEachSecondAndAClosedOneFreesItsPlace() throws Exception {
        RunningWorker worker = baton.start("mail");
        List<InputStream> streams = new ArrayList<>();
        for (int i = 0; i < EventStream.STREAMS_PER_USER; i++) {
            HttpResponse<InputStream> stream = events();
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.headers().firstValue("Content-Type")).contains("text/event-stream; charset=utf-8");
            streams.add(stream.body());
        }
        HttpResponse<String> refused = http.send(HttpRequest.newBuilder(uri("/api/events")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("anonymous already has " + EventStream.STREAMS_PER_USER
                + " event streams open");

        BufferedReader first = new BufferedReader(new InputStreamReader(streams.get(0), StandardCharsets.UTF_8));
        assertThat(first.readLine()).startsWith("data: {\"at\":\"").contains("\"queues\":{\"mail\":{");
        baton.enqueue(QueueName.of("mail"), JobId.of("m-1"), "hello");
        await().atMost(Duration.ofSeconds(10)).until(() -> worker.counters().completed() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            String line = first.readLine();
            return line.contains("\"completed\":1.0") || line.matches(".*\"completed\":0\\.[1-9].*");
        });

        for (InputStream stream : streams) {
            stream.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            HttpResponse<InputStream> again = events();
            again.body().close();
            return again.statusCode() == 200;
        });
    }

    private HttpResponse<InputStream> events() throws Exception {
        return http.send(HttpRequest.newBuilder(uri("/api/events")).build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + address.getPort() + path);
    }
}
