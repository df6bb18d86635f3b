package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.bootstrap.testing.LogCapture;
import dev.baton.domain.QueueName;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who may do what on the admin server: anonymous, viewer and operator, with passwords, without them, on a loopback
 * address or not; cross-site and non-JSON changes; and no password in any response or log line.
 */
class AdminAccessTest {
    private static final String VIEWER_PASSWORD = "view-pw-Q1";
    private static final String OPERATOR_PASSWORD = "oper-pw-Z9";
    private static final String PAUSE = "/api/queues/mail/pause";

    @RegisterExtension
    final LogCapture log = new LogCapture();

    @Nested
    class WithPasswords {
        @Test
        void allButHealthAndMetricsNeedsALoginAndOnlyTheOperatorChanges() throws Exception {
            try (Baton baton = baton("127.0.0.1:0", VIEWER_PASSWORD, OPERATOR_PASSWORD)) {
                AdminClient anonymous = AdminClient.anonymous(baton.startAdmin().orElseThrow());
                AdminClient viewer = anonymous.as("viewer", VIEWER_PASSWORD);
                AdminClient operator = anonymous.as("operator", OPERATOR_PASSWORD);

                for (String path : List.of("/api/queues", "/api/whoami", "/api/queues/mail", "/", "/nowhere")) {
                    HttpResponse<String> refused = anonymous.get(path);
                    assertThat(refused.statusCode()).as(path).isEqualTo(401);
                    assertThat(refused.headers().firstValue("WWW-Authenticate")).contains(AdminAccess.CHALLENGE);
                    assertThat(refused.body()).contains("\"error\"");
                }
                assertThat(anonymous.get("/health/live").statusCode()).isEqualTo(200);
                assertThat(anonymous.get("/health/ready").statusCode()).isEqualTo(200);
                assertThat(anonymous.get("/metrics").statusCode()).isEqualTo(200);
                assertThat(anonymous.post(PAUSE, "{}").statusCode()).isEqualTo(401);
                assertThat(anonymous.as("viewer", OPERATOR_PASSWORD).get("/api/queues").statusCode())
                        .as("the operator's password is not the viewer's").isEqualTo(401);
                assertThat(anonymous.as("operator", VIEWER_PASSWORD).get("/api/queues").statusCode()).isEqualTo(401);
                assertThat(anonymous.as("admin", OPERATOR_PASSWORD).get("/api/queues").statusCode()).isEqualTo(401);

                assertThat(viewer.get("/api/queues").statusCode()).isEqualTo(200);
                assertThat(viewer.get("/api/whoami").body())
                        .contains("\"user\" : \"viewer\"", "\"can_change\" : false");
                HttpResponse<String> viewerPause = viewer.post(PAUSE, "{}");
                assertThat(viewerPause.statusCode()).isEqualTo(403);
                assertThat(viewerPause.body()).contains("viewer may not change");
                assertThat(viewer.post("/api/queues/mail/dead/purge", "{\"all\": true}").statusCode()).isEqualTo(403);
                assertThat(paused(baton)).isFalse();

                assertThat(operator.get("/api/whoami").body()).contains("\"user\" : \"operator\"",
                        "\"can_change\" : true");
                assertThat(operator.post(PAUSE, "{}").statusCode()).isEqualTo(200);
                assertThat(paused(baton)).isTrue();
                assertThat(operator.get("/api/queues/mail/pause").statusCode()).isEqualTo(405);

                assertNoPassword(anonymous.received());
            }
        }
    }

    @Test
    void aCrossOriginOrNonJsonChangeIsRefusedAndChangesNothing() throws Exception {
        try (Baton baton = baton("127.0.0.1:0", "", OPERATOR_PASSWORD)) {
            AdminClient operator = AdminClient.anonymous(baton.startAdmin().orElseThrow())
                    .as("operator", OPERATOR_PASSWORD);

            HttpResponse<String> crossSite = operator.post(PAUSE, "{}", "Origin", "https://evil.example");
            HttpResponse<String> form = operator.postAs(PAUSE, "application/x-www-form-urlencoded", "a=b");
            HttpResponse<String> plain = operator.postAs(PAUSE, "text/plain", "{}");

            assertThat(crossSite.statusCode()).isEqualTo(403);
            assertThat(crossSite.body()).contains("cross-site");
            assertThat(form.statusCode()).isEqualTo(415);
            assertThat(plain.statusCode()).isEqualTo(415);
            assertThat(paused(baton)).isFalse();
            assertThat(operator.post(PAUSE, "{}", "Origin", operator.origin()).statusCode())
                    .as("the server's own pages").isEqualTo(200);
            assertThat(paused(baton)).isTrue();
        }
    }

    @Test
    void withTheViewersPasswordOnlyThereIsNoOperator() throws Exception {
        try (Baton baton = baton("127.0.0.1:0", VIEWER_PASSWORD, "")) {
            AdminClient anonymous = AdminClient.anonymous(baton.startAdmin().orElseThrow());

            assertThat(anonymous.get("/api/queues").statusCode()).isEqualTo(401);
            assertThat(anonymous.as("operator", "").get("/api/queues").statusCode()).isEqualTo(401);
            HttpResponse<String> refused = anonymous.as("viewer", VIEWER_PASSWORD).post(PAUSE, "{}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("no operator is configured");
            assertThat(paused(baton)).isFalse();
        }
    }

    @Nested
    class WithoutPasswords {
        @Test
        void theLoopbackAddressIsReadOnlyForAnyone() throws Exception {
            try (Baton baton = baton("127.0.0.1:0", "", "")) {
                AdminClient anonymous = AdminClient.anonymous(baton.startAdmin().orElseThrow());

                assertThat(anonymous.get("/api/queues").statusCode()).isEqualTo(200);
                assertThat(anonymous.get("/api/whoami").body()).contains("\"user\" : null", "\"can_change\" : false");
                assertThat(anonymous.post(PAUSE, "{}").statusCode()).isEqualTo(403);
                assertThat(anonymous.post("/api/queues/mail/dead/replay", "{\"all\": true}").statusCode())
                        .isEqualTo(403);
                assertThat(paused(baton)).isFalse();
            }
        }

        @Test
        void aNonLoopbackAddressServesOnlyHealthAndMetricsAndWarnsWhy() throws Exception {
            try (Baton baton = baton("0.0.0.0:0", "", "")) {
                AdminClient anonymous = AdminClient.anonymous(baton.startAdmin().orElseThrow());

                assertThat(anonymous.get("/api/queues").statusCode()).isEqualTo(403);
                assertThat(anonymous.get("/api/whoami").statusCode()).isEqualTo(403);
                assertThat(anonymous.get("/health/live").statusCode()).isEqualTo(200);
                assertThat(anonymous.get("/metrics").statusCode()).isEqualTo(200);
                assertThat(log.events()).anySatisfy(event -> assertThat(event.getFormattedMessage())
                        .contains("non-loopback", "only /health/* and /metrics"));
            }
        }
    }

    @Test
    void thePasswordsAreInNoConfigurationDescriptionErrorOrLog() throws Exception {
        try (Baton baton = baton("127.0.0.1:0", VIEWER_PASSWORD, OPERATOR_PASSWORD)) {
            baton.startAdmin();

            assertThat(baton.config().describe().values()).doesNotContain(VIEWER_PASSWORD, OPERATOR_PASSWORD)
                    .contains("****");
            assertThat(baton.config().toString()).doesNotContain(VIEWER_PASSWORD).doesNotContain(OPERATOR_PASSWORD);
            assertThat(baton.config().redact("failed with " + OPERATOR_PASSWORD)).isEqualTo("failed with ****");
            assertNoPassword(log.events().stream().map(ILoggingEvent::getFormattedMessage).toList());
        }
    }

    private void assertNoPassword(List<String> texts) {
        assertThat(texts).isNotEmpty().allSatisfy(text -> assertThat(text)
                .doesNotContain(VIEWER_PASSWORD).doesNotContain(OPERATOR_PASSWORD));
        assertThat(log.events()).allSatisfy(event -> assertThat(event.getFormattedMessage())
                .doesNotContain(VIEWER_PASSWORD).doesNotContain(OPERATOR_PASSWORD));
    }

    private static Baton baton(String address, String viewerPassword, String operatorPassword) {
        Map<String, String> env = new HashMap<>(Map.of("BATON_ADMIN_ADDRESS", address, "BATON_QUEUES", "mail"));
        env.put("BATON_ADMIN_VIEWER_PASSWORD", viewerPassword);
        env.put("BATON_ADMIN_OPERATOR_PASSWORD", operatorPassword);
        return Baton.builder().config(ConfigLoader.load(env, Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .handler("mail", context -> Optional.empty())
                .build();
    }

    private static boolean paused(Baton baton) {
        return baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(QueueName.of("mail")))
                .stats().paused();
    }
}
