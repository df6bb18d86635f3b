package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestRedis;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The transport contracts on a partitioned queue of a single (standalone) Redis. */
class PartitionedStreamTransportContractTest extends PartitionedContract {
    private static RedisAdapter adapter;
    private static RawKeys raw;

    @BeforeAll
    static void connect() {
        String uri = TestRedis.uri();
        adapter = RedisAdapter.open(new RedisAdapter.Config(uri, "-workers", PAYLOAD_LIMIT, Duration.ofSeconds(10),
                false), Clock.systemUTC());
        raw = RawKeys.standalone(uri);
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
    RawKeys raw() {
        return raw;
    }
}
