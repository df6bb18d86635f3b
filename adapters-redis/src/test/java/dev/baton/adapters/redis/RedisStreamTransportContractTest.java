package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The transport contracts against a real Redis. */
class RedisStreamTransportContractTest extends RedisContracts {
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

    @Override
    RedisAdapter adapter() {
        return adapter;
    }

    @Override
    public void forget(QueueName queue) {
        raw.forget(queue);
    }

    @Override
    public void appendRaw(QueueName queue, Map<String, String> fields) {
        raw.append(queue, fieldsAndValues(fields));
    }

    @Override
    public void damageStream(QueueName queue) {
        raw.commands().set(RawRedis.stream(queue), RawRedis.bytes("x"));
    }

    @Override
    public void deleteFromStream(QueueName queue, DeliveryId id) {
        raw.commands().xdel(RawRedis.stream(queue), id.value());
    }
}
