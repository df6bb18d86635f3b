package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.testing.MutableClock;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The admin server's defences against what a probe found: empty filters that meant "all", password guessing, foreign
 * {@code Host} names (DNS rebinding), framing, a reverse proxy's origin, no sign-out, and log lines forged through
 * values from outside. Each over HTTP against a started server on the in-memory adapters.
 */
class AdminDefencesTest {
    private static final String VIEWER_PASSWORD = "def-view-4k";
    private static final String OPERATOR_PASSWORD = "def-oper-7m";
    private static final String PUBLIC_ORIGIN = "https://baton.example.com";
    private static final QueueName MAIL = QueueName.of("mail");

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @BeforeEach
    void captureLog() {
        log.start();
        root.addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        root.detachAppender(log);
    }

    @Nested
    class EmptyFilters {
        @Test
        void anEmptyOrNullFilterIsRefusedAndChangesNothing() throws Exception {
            try (Baton baton = baton(Map.of())) {
                AdminClient operator = client(baton).as("operator", OPERATOR_PASSWORD);
                deadLetters(baton, 3);

                for (String body : List.of("{\"filter\": {}}", "{\"filter\": {\"reason\": null}}",
                        "{\"filter\": {\"error_type\": \"\", \"from\": null}}")) {
                    for (String action : List.of("replay", "purge")) {
                        HttpResponse<String> refused = operator.post("/api/queues/mail/dead/" + action, body);
                        assertThat(refused.statusCode()).as(action + " " + body).isEqualTo(400);
                        assertThat(refused.body()).contains("{\\\"all\\\": true}");
                    }
                }
                HttpResponse<String> typo = operator.get("/api/queues/mail/dead?reasn=POISON");
                assertThat(typo.statusCode()).isEqualTo(400);
                assertThat(typo.body()).contains("reasn");
                assertThat(operator.get("/api/queues/mail").body()).as("nothing changed").contains("\"dead\" : 3");
                assertThat(operator.post("/api/queues/mail/dead/purge", "{\"all\": true}").body())
                        .contains("\"purged\" : 3");
            }
        }
    }

    @Nested
    class Logins {
        @Test
        void failedLoginsAreWarnedThenLockedUntilTheLockLapses() throws Exception {
            try (Baton baton = baton(Map.of())) {
                AdminClient anonymous = client(baton);
                for (int guess = 0; guess < LoginThrottle.FREE_FAILURES; guess++) {
                    assertThat(anonymous.as("operator", "guess-" + guess).get("/api/queues").statusCode())
                            .isEqualTo(401);
                }
                assertThat(warnings("admin login failed")).hasSize(LoginThrottle.FREE_FAILURES)
                        .allSatisfy(line -> assertThat(line).contains("user=operator", "client=127.0.0.1")
                                .doesNotContain("guess-"));

                HttpResponse<String> locked = anonymous.as("operator", OPERATOR_PASSWORD).get("/api/queues");
                assertThat(locked.statusCode()).as("even the right password, while locked").isEqualTo(429);
                assertThat(locked.headers().firstValue("Retry-After")).contains("1");
                assertThat(anonymous.as("viewer", VIEWER_PASSWORD).get("/api/queues").statusCode())
                        .as("another user").isEqualTo(200);

                clock.advance(Duration.ofSeconds(1));
                assertThat(anonymous.as("operator", OPERATOR_PASSWORD).get("/api/queues").statusCode())
                        .as("the lock lapsed").isEqualTo(200);
            }
        }

        @Test
        void eachChangeIsLoggedWithItsUserAndClient() throws Exception {
            try (Baton baton = baton(Map.of())) {
                client(baton).as("operator", OPERATOR_PASSWORD).post("/api/queues/mail/pause", "{}");

                // logged once the answer is sent
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(infos("admin change"))
                        .singleElement().asString()
                        .contains("user=operator", "client=127.0.0.1", "POST /api/queues/mail/pause", "status=200"));
            }
        }
    }

    @Nested
    class HostNames {
        @Test
        void aForeignHostIsRefusedLoopbackNamesAreServed() throws Exception {
            Map<String, String> noPasswords = Map.of("BATON_ADMIN_VIEWER_PASSWORD", "",
                    "BATON_ADMIN_OPERATOR_PASSWORD", "");
            try (Baton baton = baton(noPasswords)) {
                int port = baton.startAdmin().orElseThrow().getPort();

                String rebound = raw(port, "GET /api/queues", "evil.example:" + port);
                assertThat(rebound).startsWith("HTTP/1.1 403").contains("evil.example").doesNotContain("\"queues\"");
                for (String host : List.of("localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "localhost")) {
                    assertThat(raw(port, "GET /api/queues", host)).as(host).startsWith("HTTP/1.1 200");
                }
                assertThat(raw(port, "GET /health/live", "10.1.2.3:9400")).as("a probe by the pod's address")
                        .startsWith("HTTP/1.1 200");
            }
        }

        @Test
        void behindAProxyThePublicOriginMayChangeThings() throws Exception {
            try (Baton baton = baton(Map.of("BATON_ADMIN_PUBLIC_ORIGIN", PUBLIC_ORIGIN))) {
                int port = baton.startAdmin().orElseThrow().getPort();
                String operator = "Authorization: " + basic("operator", OPERATOR_PASSWORD);

                assertThat(raw(port, "POST /api/queues/mail/pause", "127.0.0.1:" + port, operator,
                        "Origin: " + PUBLIC_ORIGIN)).as("Host rewritten by the proxy").startsWith("HTTP/1.1 200");
                assertThat(raw(port, "POST /api/queues/mail/resume", "baton.example.com", operator,
                        "Origin: " + PUBLIC_ORIGIN)).as("Host passed on").startsWith("HTTP/1.1 200");
                assertThat(raw(port, "POST /api/queues/mail/pause", "baton.example.com", operator,
                        "Origin: https://evil.example")).startsWith("HTTP/1.1 403");
                assertThat(raw(port, "GET /api/queues", "other.example.com", operator)).startsWith("HTTP/1.1 403");
            }
        }
    }

    @Nested
    class ResponseHeaders {
        @Test
        void everyAnswerForbidsFramingAndReferrers() throws Exception {
            try (Baton baton = baton(Map.of())) {
                AdminClient anonymous = client(baton);
                AdminClient viewer = anonymous.as("viewer", VIEWER_PASSWORD);

                for (HttpResponse<String> response : List.of(viewer.get("/"), viewer.get("/dashboard/dead.html"),
                        viewer.get("/api/queues"), viewer.get("/nowhere"), anonymous.get("/api/queues"),
                        anonymous.get("/health/live"))) {
                    var headers = response.headers();
                    assertThat(headers.firstValue("Content-Security-Policy")).as(response.uri().toString())
                            .hasValueSatisfying(csp -> assertThat(csp).contains("frame-ancestors 'none'"));
                    assertThat(headers.firstValue("X-Frame-Options")).contains("DENY");
                    assertThat(headers.firstValue("Referrer-Policy")).contains("no-referrer");
                }
                assertThat(viewer.get("/").headers().firstValue("Content-Security-Policy")).as("merged")
                        .hasValueSatisfying(csp -> assertThat(csp).contains("default-src 'self'",
                                "frame-ancestors 'none'"));
            }
        }

        @Test
        void theFaviconIsServedAndEveryPageLinksIt() throws Exception {
            try (Baton baton = baton(Map.of())) {
                AdminClient viewer = client(baton).as("viewer", VIEWER_PASSWORD);

                HttpResponse<String> icon = viewer.get("/dashboard/favicon.svg");
                assertThat(icon.statusCode()).isEqualTo(200);
                assertThat(icon.headers().firstValue("Content-Type")).contains("image/svg+xml");
                for (String page : List.of("/", "/dashboard/queue.html", "/dashboard/job.html",
                        "/dashboard/outcomes.html", "/dashboard/dead.html")) {
                    assertThat(viewer.get(page).body()).as(page)
                            .contains("<link rel=\"icon\" href=\"/dashboard/favicon.svg\"");
                }
            }
        }
    }

    @Nested
    class SignOut {
        @Test
        void signingOutMakesThatBrowserLogInAgain() throws Exception {
            try (Baton baton = baton(Map.of())) {
                AdminClient viewer = client(baton).as("viewer", VIEWER_PASSWORD);

                HttpResponse<String> out = viewer.post("/api/signout", "{}");
                assertThat(out.statusCode()).isEqualTo(200);
                String cookie = out.headers().firstValue("Set-Cookie").orElseThrow();
                assertThat(cookie).contains("HttpOnly", "SameSite=Strict", "Path=/");

                HttpResponse<String> again = viewer.get("/api/queues", "Cookie", cookie.split(";")[0]);
                assertThat(again.statusCode()).as("the cached password no longer works").isEqualTo(401);
                assertThat(again.headers().firstValue("WWW-Authenticate")).contains(AdminAccess.CHALLENGE);
                assertThat(again.headers().firstValue("Set-Cookie")).hasValueSatisfying(cleared ->
                        assertThat(cleared).contains("Max-Age=0"));
                assertThat(viewer.get("/api/queues").statusCode()).as("the password typed again").isEqualTo(200);
            }
        }
    }

    @Nested
    class LogLines {
        @Test
        void valuesFromOutsideCannotForgeALogLine() throws Exception {
            String forged = "\r\n2026-12-01 10:00:00 INFO [main] dev.baton - FORGED operator login ok";
            try (Baton baton = baton(Map.of())) {
                AdminClient anonymous = client(baton);
                deadLetters(baton, 1, "bad input" + forged);

                anonymous.as("intruder" + forged, "guess").get("/api/queues");
                anonymous.as("operator", OPERATOR_PASSWORD).post("/api/queues/mail/dead/purge",
                        "{\"filter\": {\"error_type\": \"x" + forged.replace("\r\n", "\\r\\n") + "\"}}");

                // the worker logs its dead letter on its own thread, maybe after the test saw it counted
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(lines(Level.WARN, "bad input"))
                        .isNotEmpty());
                List<String> carrying = lines(null, "FORGED", "intruder", "bad input");
                assertThat(carrying).hasSizeGreaterThanOrEqualTo(3)
                        .allSatisfy(line -> assertThat(line).doesNotContain("\n").doesNotContain("\r"));
                assertThat(carrying).anySatisfy(line -> assertThat(line).contains("user=intruder\\r\\n2026"));
            }
        }
    }

    private List<String> warnings(String containing) {
        return lines(Level.WARN, containing);
    }

    private List<String> infos(String containing) {
        return lines(Level.INFO, containing);
    }

    /** The lines logged at {@code level} (any when null) that contain one of {@code texts}. */
    private List<String> lines(Level level, String... texts) {
        synchronized (log) { // the appender appends under this lock, from the server's and worker's threads
            return log.list.stream().filter(event -> level == null || event.getLevel() == level)
                    .map(ILoggingEvent::getFormattedMessage)
                    .filter(line -> Arrays.stream(texts).anyMatch(line::contains)).toList();
        }
    }

    /** Viewer and operator passwords, the queue {@code mail}, the mutable clock; {@code more} settings on top. */
    private Baton baton(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", "mail",
                "BATON_ADMIN_VIEWER_PASSWORD", VIEWER_PASSWORD, "BATON_ADMIN_OPERATOR_PASSWORD", OPERATOR_PASSWORD));
        env.putAll(more);
        return Baton.builder().config(ConfigLoader.load(env, Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(clock).ports())
                .clock(clock)
                .handler("mail", context -> {
                    throw new NonRetryableException(context.job().payload());
                })
                .build();
    }

    private static AdminClient client(Baton baton) {
        return AdminClient.anonymous(baton.startAdmin().orElseThrow());
    }

    private static void deadLetters(Baton baton, int count) {
        deadLetters(baton, count, "broken");
    }

    /** {@code count} jobs of {@code mail} whose handler fails with {@code error}, dead-lettered. */
    private static void deadLetters(Baton baton, int count, String error) {
        for (int i = 0; i < count; i++) {
            baton.enqueue(MAIL, JobId.of("doomed-" + i), error);
        }
        RunningWorker worker = baton.start("mail");
        await().atMost(Duration.ofSeconds(20)).until(() -> worker.counters().deadLettered() == count);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    /**
     * One request over a plain socket, as a browser after DNS rebinding or a proxy would send it: the JDK's HTTP
     * client refuses to set {@code Host}. A POST carries {@code {}} as JSON.
     */
    private static String raw(int port, String requestLine, String host, String... headers) throws IOException {
        StringBuilder request = new StringBuilder(requestLine).append(" HTTP/1.1\r\nHost: ").append(host)
                .append("\r\nConnection: close\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        if (requestLine.startsWith("POST")) {
            request.append("Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        } else {
            request.append("\r\n");
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
