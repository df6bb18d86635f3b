package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.ThrowawayRedis;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.PayloadLimit;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Each test on a private Redis server, which it flushes and restarts without persistence. */
class RedisTransportMemoryTest {

    @Test
    void theEpochStaysWhileRedisKeepsItsDataChangingOnAFlushOrRestart() {
        try (ThrowawayRedis server = ThrowawayRedis.start();
             RedisAdapter adapter = RedisAdapter.open(new RedisAdapter.Config(server.uri(), "-workers",
                     PayloadLimit.DEFAULT, Duration.ofSeconds(2), false), Clock.systemUTC())) {
            String first = adapter.memory().epoch();
            assertThat(adapter.memory().epoch()).isEqualTo(first);

            flush(server);
            String afterFlush = adapter.memory().epoch();
            assertThat(afterFlush).isNotEqualTo(first);

            server.restart();
            AtomicReference<String> afterRestart = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(30)).ignoreException(TransportException.class)
                    .until(() -> afterRestart.getAndSet(adapter.memory().epoch()) == null);
            assertThat(afterRestart.get()).isNotEqualTo(afterFlush);
        }
    }

    private static void flush(ThrowawayRedis server) {
        RedisClient client = RedisClient.create(server.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().flushall();
        } finally {
            client.shutdown();
        }
    }
}
