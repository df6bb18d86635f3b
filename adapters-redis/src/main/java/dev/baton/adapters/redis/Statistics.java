package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.info;
import static dev.baton.adapters.redis.RedisValues.text;

import dev.baton.domain.ConsumerStats;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.models.stream.PendingMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A queue's figures, summed over its partitions: stream length, lag, pending entries and their oldest idle time,
 * consumers, delayed jobs and dead letters, and whether it is paused. Polled by gauges and the admin API, so every
 * partition's commands go out together (pipelined): one round trip per node.
 */
final class Statistics {
    /** Pending entries looked at for the oldest pending idle time. */
    private static final int PENDING_SAMPLE = 1_000;

    /** One partition's stats replies, requested together (pipelined) with every other partition's. */
    private record PartitionReplies(QueueKeys keys, RedisFuture<Long> length, RedisFuture<Long> delayed,
                                  RedisFuture<Long> dead, RedisFuture<List<Object>> groups,
                                  RedisFuture<List<Object>> consumers, RedisFuture<List<PendingMessage>> oldest,
                                  RedisFuture<List<byte[]>> isolated) {
    }

    private final Link connection;
    private final Partitions partitions;
    private final Replies replies;

    Statistics(Link connection, Partitions partitions, Replies replies) {
        this.connection = connection;
        this.partitions = partitions;
        this.replies = replies;
    }

    QueueStats stats(QueueName queue) {
        QueueLayout layout = partitions.layout("stats", queue);
        RedisClusterAsyncCommands<byte[], byte[]> async = connection.async();
        return call("stats", queue, () -> {
            // pipelined: one round trip (per node); the group's commands fail when the stream or group is missing
            List<PartitionReplies> requests = layout.all().stream().map(keys -> new PartitionReplies(keys,
                    async.xlen(keys.stream()), async.zcard(keys.delayed()), async.xlen(keys.dead()),
                    async.xinfoGroups(keys.stream()), async.xinfoConsumers(keys.stream(), keys.group()),
                    async.xpending(keys.stream(), keys.group(), Range.unbounded(),
                            Limit.from(PENDING_SAMPLE)), async.hvals(keys.isolated()))).toList();
            RedisFuture<Long> paused = async.exists(layout.namespace().paused(queue));
            long length = 0;
            long delayed = 0;
            long dead = 0;
            long pending = 0;
            long suspects = 0;
            long isolatedDeliveries = 0;
            long lag = 0;
            boolean lagKnown = true;
            boolean anyGroup = false;
            Duration oldestIdle = Duration.ZERO;
            Map<String, ConsumerStats> consumers = new LinkedHashMap<>();
            for (PartitionReplies request : requests) {
                length += replies.get(request.length());
                delayed += replies.get(request.delayed());
                dead += replies.get(request.dead());
                for (byte[] count : replies.get(request.isolated())) {
                    suspects++;
                    isolatedDeliveries += Long.parseLong(Utf8.ascii(count));
                }
                Optional<Map<String, Object>> group = replies.ifExists(request.groups())
                        .flatMap(all -> Groups.own(request.keys(), all));
                if (group.isEmpty()) {
                    continue;
                }
                anyGroup = true;
                pending += (Long) group.get().get("pending");
                if (group.get().get("lag") instanceof Long partitionLag) {
                    lag += partitionLag;
                } else {
                    lagKnown = false;
                }
                for (PendingMessage message : replies.ifExists(request.oldest()).orElse(List.of())) {
                    oldestIdle = max(oldestIdle, message.getSinceLastDelivery());
                }
                for (Object item : replies.ifExists(request.consumers()).orElse(List.of())) {
                    Map<String, Object> info = info(item);
                    // one consumer across partitions: what it holds everywhere, idle since its latest action
                    consumers.merge(text(info.get("name")), new ConsumerStats(text(info.get("name")),
                            (Long) info.get("pending"), Duration.ofMillis((Long) info.get("idle"))),
                            (a, b) -> new ConsumerStats(a.name(), a.pending() + b.pending(),
                                    a.idle().compareTo(b.idle()) <= 0 ? a.idle() : b.idle()));
                }
            }
            OptionalLong groupLag = anyGroup && lagKnown ? OptionalLong.of(lag) : OptionalLong.empty();
            return new QueueStats(queue, length, groupLag, pending, oldestIdle, List.copyOf(consumers.values()),
                    delayed, dead, suspects, isolatedDeliveries, replies.get(paused) > 0);
        });
    }

    /** Each partition's length and pending entries, requested together (pipelined); none for one partition. */
    List<PartitionStats> partitions(QueueName queue) {
        QueueLayout layout = partitions.layout("partition stats", queue);
        if (layout.all().size() == 1) {
            return List.of();
        }
        RedisClusterAsyncCommands<byte[], byte[]> async = connection.async();
        return call("partition stats", queue, () -> {
            List<QueueKeys> all = layout.all();
            List<RedisFuture<Long>> lengths = all.stream().map(keys -> async.xlen(keys.stream())).toList();
            List<RedisFuture<List<Object>>> groups = all.stream().map(keys -> async.xinfoGroups(keys.stream()))
                    .toList();
            List<PartitionStats> stats = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                QueueKeys keys = all.get(i);
                long pending = replies.ifExists(groups.get(i)).flatMap(found -> Groups.own(keys, found))
                        .map(group -> (Long) group.get("pending")).orElse(0L);
                stats.add(new PartitionStats(keys.partition(), replies.get(lengths.get(i)),
                        pending));
            }
            return List.copyOf(stats);
        });
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
