package dev.baton.adapters.redis;

import dev.baton.domain.QueueName;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Direct access to the test Redis, for what the port cannot do: raw entries, forced idle times, cleanup. */
final class RawRedis implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;

    RawRedis(String uri) {
        client = RedisClient.create(uri);
        connection = client.connect(ByteArrayCodec.INSTANCE);
    }

    RedisCommands<byte[], byte[]> commands() {
        return connection.sync();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] stream(QueueName queue) {
        return bytes("baton:{" + queue + "}:stream");
    }

    static byte[] delayed(QueueName queue) {
        return bytes("baton:{" + queue + "}:delayed");
    }

    static byte[] dead(QueueName queue) {
        return bytes("baton:{" + queue + "}:dead");
    }

    static byte[] deadJobs(QueueName queue) {
        return bytes("baton:{" + queue + "}:dead-jobs");
    }

    static byte[] isolated(QueueName queue) {
        return bytes("baton:{" + queue + "}:isolated");
    }

    static byte[] group(QueueName queue) {
        return bytes(queue + "-workers");
    }

    /** Appends an entry with these fields (name, value, ...) as they are, like {@code redis-cli XADD}. */
    String append(QueueName queue, byte[]... fieldsAndValues) {
        return commands().xadd(stream(queue), (Object[]) fieldsAndValues);
    }

    /** Sets an entry's idle time as if its holder had been quiet that long: XCLAIM to the same owner with IDLE. */
    void makeIdle(QueueName queue, String id, String owner, Duration idle) {
        commands().dispatch(CommandType.XCLAIM, new ArrayOutput<>(ByteArrayCodec.INSTANCE),
                new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(stream(queue)).addValue(group(queue))
                        .addValue(bytes(owner)).add(0).add(id).add("IDLE").add(idle.toMillis()).add("JUSTID"));
    }

    /** Deletes every key of the queue. */
    void forget(QueueName queue) {
        commands().del(stream(queue), delayed(queue), dead(queue), deadJobs(queue), Namespace.DEFAULT.paused(queue),
                Namespace.DEFAULT.cancelled(queue));
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
