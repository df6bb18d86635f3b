package dev.baton.bootstrap.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A Redis that requires a password: the password in BATON_REDIS_URI works, and a wrong one never shows up. */
class RedisPasswordTest {
    private Process redis;
    private int port;

    @BeforeEach
    void startRedisWithAPassword() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        redis = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--requirepass", "open-sesame"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return true;
            }
        });
    }

    @AfterEach
    void stopRedis() throws InterruptedException {
        redis.destroy();
        redis.waitFor();
    }

    @Test
    void thePasswordInTheUriWorksAndAWrongOneIsNeverPrinted() {
        try (Baton baton = atLeastOnce("redis://:open-sesame@127.0.0.1:" + port)) {
            baton.enqueue(QueueName.of("secret-q"), JobId.of("job-1"), "payload");
            assertThat(baton.use(InspectQueueUseCase.class)
                    .inspect(new InspectQueueUseCase.Command(QueueName.of("secret-q"))).stats().length()).isEqualTo(1);
            assertThat(baton.health()).containsEntry("redis", true);
        }
        try (Baton baton = atLeastOnce("redis://:wrong-guess@127.0.0.1:" + port)) {
            assertThatThrownBy(() -> baton.enqueue(QueueName.of("secret-q"), JobId.of("job-2"), "payload"))
                    .satisfies(failure -> assertThat(baton.config().redact(String.valueOf(failure.getMessage())))
                            .doesNotContain("wrong-guess"));
            assertThat(baton.health()).containsEntry("redis", false);
            assertThat(baton.config().describe().get("redis-uri")).isEqualTo("redis://:****@127.0.0.1:" + port);
        }
    }

    private static Baton atLeastOnce(String uri) {
        return Baton.builder().config(ConfigLoader.load(Map.of("BATON_REDIS_URI", uri, "BATON_MODE",
                "at-least-once"), Optional.empty(), Map.of())).build();
    }
}
