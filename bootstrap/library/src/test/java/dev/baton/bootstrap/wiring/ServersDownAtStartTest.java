package dev.baton.bootstrap.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.ThrowawayRedis;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.out.TransportException;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An instance whose Redis does not answer when it opens (BATON_REQUIRE_SERVERS_AT_START off, the default): its health
 * says why, a direct enqueue fails at once, and the same instance works once a Redis answers on that port.
 */
class ServersDownAtStartTest {
    private final QueueName queue = QueueName.of("servers-down-at-start");

    private static Baton atLeastOnce(String uri, String requireServers) {
        return Baton.builder().config(ConfigLoader.load(Map.of("BATON_REDIS_URI", uri, "BATON_MODE", "at-least-once",
                "BATON_REQUIRE_SERVERS_AT_START", requireServers), Optional.empty(), Map.of())).build();
    }

    @Test
    void itStartsSaysWhyRedisIsDownAndWorksOnceItAnswers() {
        try (ThrowawayRedis redis = ThrowawayRedis.notStarted();
             Baton baton = atLeastOnce(redis.uri(), "off")) {
            assertThat(baton.health()).containsEntry("redis", false);
            assertThat(baton.healthProblems().get("redis")).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("Redis at " + redis.uri() + " is unreachable since"));
            assertThatThrownBy(() -> baton.enqueue(queue, JobId.of("early"), "{}"))
                    .isInstanceOf(TransportException.class).hasMessageContaining("is unreachable since");

            redis.startNow();

            await().atMost(Duration.ofSeconds(20)).until(() -> baton.health().get("redis"));
            baton.enqueue(queue, JobId.of("late"), "{}");
            assertThat(baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(queue)).stats()
                    .length()).isEqualTo(1);
        }
    }

    @Test
    void requiredServersFailItsFirstUseAsTheCommandsDo() {
        try (ThrowawayRedis redis = ThrowawayRedis.notStarted();
             Baton baton = atLeastOnce(redis.uri(), "on")) {
            assertThatThrownBy(() -> baton.enqueue(queue, JobId.of("refused"), "{}"))
                    .isInstanceOf(TransportException.class).hasMessageContaining("cannot connect to Redis at");
            assertThat(baton.healthProblems().get("redis")).hasValueSatisfying(reason -> assertThat(reason)
                    .contains("cannot connect to Redis at " + redis.uri()));
        }
    }
}
