package dev.baton.adapters.redis;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * One connection to a standalone Redis or to a Redis Cluster. The adapter speaks only the commands both implement;
 * on a cluster, Lettuce routes each command by its first key and follows MOVED/ASK redirects.
 */
record Link(StatefulConnection<byte[], byte[]> stateful, RedisClusterCommands<byte[], byte[]> sync,
            RedisClusterAsyncCommands<byte[], byte[]> async) {

    static Link of(StatefulRedisConnection<byte[], byte[]> connection) {
        return new Link(connection, connection.sync(), connection.async());
    }

    static Link of(StatefulRedisClusterConnection<byte[], byte[]> connection) {
        return new Link(connection, connection.sync(), connection.async());
    }

    void close() {
        stateful.close();
    }
}
