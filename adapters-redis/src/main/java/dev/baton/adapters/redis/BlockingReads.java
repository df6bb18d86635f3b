package dev.baton.adapters.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One connection per calling thread, used only for blocking XREADGROUP: a blocked read would otherwise hold up every
 * command queued behind it on a shared connection, and their timeouts would fire on the read.
 */
final class BlockingReads implements AutoCloseable {
    private final RedisClient client;
    private final Map<Thread, StatefulRedisConnection<byte[], byte[]>> byThread = new ConcurrentHashMap<>();

    BlockingReads(RedisClient client) {
        this.client = client;
    }

    StatefulRedisConnection<byte[], byte[]> forCurrentThread() {
        byThread.entrySet().removeIf(entry -> {
            if (entry.getKey().isAlive()) {
                return false;
            }
            entry.getValue().closeAsync();
            return true;
        });
        return byThread.computeIfAbsent(Thread.currentThread(), thread -> client.connect(ByteArrayCodec.INSTANCE));
    }

    @Override
    public void close() {
        byThread.values().forEach(StatefulRedisConnection::close);
        byThread.clear();
    }
}
