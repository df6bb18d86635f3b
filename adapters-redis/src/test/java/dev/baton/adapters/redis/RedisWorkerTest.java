package dev.baton.adapters.redis;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The application's real worker loop on this adapter and a real Redis (with the in-memory ledger). */
class RedisWorkerTest {
    private static RedisAdapter adapter;
    private static RawRedis raw;
    private final QueueName queue = QueueName.of("worker-test-" + UUID.randomUUID().toString().substring(0, 13));

    @BeforeAll
    static void connect() {
        adapter = RedisAdapter.open(RedisAdapter.Config.of(TestRedis.uri()), Clock.systemUTC());
        raw = new RawRedis(TestRedis.uri());
    }

    @AfterAll
    static void disconnect() {
        adapter.close();
        raw.close();
    }

    @Test
    void twoWorkersRunEveryJobOnceRetryingThroughTheDelayedSet() {
        FlakyJobsRun.runAndCheck(adapter, queue, 200);
        raw.forget(queue);
    }
}
