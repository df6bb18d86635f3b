package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Partitioned queues on a single (standalone) Redis. */
class PartitionedQueueTest extends PartitionedQueueScenarios {
    private static RedisAdapter adapter;
    private static RawKeys raw;

    @BeforeAll
    static void connect() {
        adapter = RedisAdapter.open(config(TestRedis.uri()), clock());
        raw = RawKeys.standalone(TestRedis.uri());
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
    RedisAdapter openAnother() {
        return RedisAdapter.open(config(TestRedis.uri()), clock());
    }

    @Override
    RawKeys raw() {
        return raw;
    }
}
