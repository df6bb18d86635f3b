package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the running totals that {@code acknowledge.lua}, {@code retry_later.lua} and {@code dead_letter.lua} keep in
 * each partition's {@code totals} hash: one {@code HMGET} per partition of every queue asked for, all sent together
 * (pipelined), so a dashboard's poll of every queue is one round trip (per node).
 */
final class Totals {
    private static final byte[][] FIELDS = {bytes("completed"), bytes("retried"), bytes("dead")};

    private record Request(QueueName queue, RedisFuture<List<KeyValue<byte[], byte[]>>> reply) {
    }

    private final Link connection;
    private final Partitions partitions;
    private final Replies replies;

    Totals(Link connection, Partitions partitions, Replies replies) {
        this.connection = connection;
        this.partitions = partitions;
        this.replies = replies;
    }

    Map<QueueName, QueueTotals> of(Collection<QueueName> queues) {
        List<QueueLayout> layouts = queues.stream().map(queue -> partitions.layout("totals", queue)).toList();
        RedisClusterAsyncCommands<byte[], byte[]> async = connection.async();
        return call("Redis totals of " + queues.size() + " queues", () -> {
            List<Request> requests = layouts.stream().flatMap(layout -> layout.all().stream()
                    .map(keys -> new Request(keys.queue(), async.hmget(keys.totals(), FIELDS)))).toList();
            Map<QueueName, QueueTotals> totals = new LinkedHashMap<>();
            queues.forEach(queue -> totals.put(queue, QueueTotals.none(queue)));
            for (Request request : requests) {
                List<KeyValue<byte[], byte[]>> values = replies.get(request.reply());
                totals.merge(request.queue(), new QueueTotals(request.queue(), count(values.get(0)),
                        count(values.get(1)), count(values.get(2))), QueueTotals::plus);
            }
            return totals;
        });
    }

    private static long count(KeyValue<byte[], byte[]> value) {
        return value.hasValue() ? Long.parseLong(Utf8.ascii(value.getValue())) : 0;
    }
}
