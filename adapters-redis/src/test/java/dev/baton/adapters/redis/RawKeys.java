package dev.baton.adapters.redis;

import dev.baton.domain.QueueName;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.util.Arrays;
import java.util.List;

/** Direct access to the keys of partitioned queues, on a standalone Redis or a cluster, bypassing the adapter. */
final class RawKeys implements AutoCloseable {
    private final AbstractRedisClient client;
    private final StatefulConnection<byte[], byte[]> connection;
    private final RedisClusterCommands<byte[], byte[]> commands;

    private RawKeys(AbstractRedisClient client, StatefulConnection<byte[], byte[]> connection,
                    RedisClusterCommands<byte[], byte[]> commands) {
        this.client = client;
        this.connection = connection;
        this.commands = commands;
    }

    static RawKeys standalone(String uri) {
        RedisClient client = RedisClient.create(uri);
        StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
        return new RawKeys(client, connection, connection.sync());
    }

    static RawKeys cluster(String nodes) {
        List<RedisURI> seeds = Arrays.stream(nodes.split(",")).map(node -> RedisURI.create("redis://" + node))
                .toList();
        RedisClusterClient client = RedisClusterClient.create(seeds);
        StatefulRedisClusterConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
        return new RawKeys(client, connection, connection.sync());
    }

    RedisClusterCommands<byte[], byte[]> commands() {
        return commands;
    }

    /** Partition {@code p}'s keys of a queue with {@code partitions} partitions. */
    static QueueKeys keys(QueueName queue, int partition, int partitions) {
        return keys(Namespace.DEFAULT, queue, partition, partitions);
    }

    static QueueKeys keys(Namespace namespace, QueueName queue, int partition, int partitions) {
        return QueueKeys.of(namespace, queue, "-workers", partition, partitions);
    }

    /** Deletes every key of the queue (all partitions, its metadata, its pause and its cancels). */
    void forget(QueueName queue, int partitions) {
        forget(Namespace.DEFAULT, queue, partitions);
    }

    void forget(Namespace namespace, QueueName queue, int partitions) {
        for (int p = 0; p < partitions; p++) {
            QueueKeys partition = keys(namespace, queue, p, partitions);
            // one DEL per partition: on a cluster, a command may only touch keys of one slot
            commands.del(partition.all());
            for (byte[] lock : commands.keys(partition.uniqueLockPrefix() + "*")) {
                commands.del(lock);
            }
        }
        commands.del(namespace.meta(queue), namespace.paused(queue), namespace.cancelled(queue));
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
