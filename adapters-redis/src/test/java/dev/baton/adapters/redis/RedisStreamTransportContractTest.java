package dev.baton.adapters.redis;

import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.application.testing.StreamTransportContract;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The port contract against a real Redis. */
class RedisStreamTransportContractTest extends StreamTransportContract {
    private static RedisAdapter adapter;
    private static RawRedis raw;

    @BeforeAll
    static void connect() {
        String uri = TestRedis.uri();
        adapter = RedisAdapter.open(new RedisAdapter.Config(uri, "-workers", PAYLOAD_LIMIT, Duration.ofSeconds(10),
                false), Clock.systemUTC());
        raw = new RawRedis(uri);
    }

    @AfterAll
    static void disconnect() {
        adapter.close();
        raw.close();
    }

    @AfterEach
    void forgetQueue() {
        raw.forget(queue);
    }

    @Override
    protected StreamTransport transport() {
        return adapter.transport();
    }

    @Override
    protected void appendRaw(QueueName queue, Map<String, String> fields) {
        List<byte[]> values = new ArrayList<>();
        fields.forEach((name, value) -> {
            values.add(RawRedis.bytes(name));
            values.add(RawRedis.bytes(value));
        });
        raw.append(queue, values.toArray(byte[][]::new));
    }

    @Override
    protected void deleteFromStream(QueueName queue, DeliveryId id) {
        raw.commands().xdel(RawRedis.stream(queue), id.value());
    }

    /** Idle times are the server's: real time has to pass. */
    @Override
    protected void elapse(Duration duration) {
        await().pollDelay(duration).atMost(duration.plusSeconds(5)).until(() -> true);
    }
}
