package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.RedisValues.text;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes to a queue's keys as a whole, for operators and throwaway queues: repartitioning a drained queue, deleting
 * one. Kept apart from {@link Partitions} because they check and remove work, which the layout itself never does.
 */
final class LayoutChanges {
    private static final Logger LOG = LoggerFactory.getLogger(LayoutChanges.class);

    private final RedisClusterCommands<byte[], byte[]> redis;
    private final Partitions partitions;
    private final Groups groups;
    private final Statistics statistics;

    LayoutChanges(RedisClusterCommands<byte[], byte[]> redis, Partitions partitions, Groups groups,
                  Statistics statistics) {
        this.redis = redis;
        this.partitions = partitions;
        this.groups = groups;
        this.statistics = statistics;
    }

    /**
     * Records a new partition count for a queue that holds no work: every partition empty of undelivered, pending,
     * delayed and dead entries. The old partitions' keys (acknowledged history) are deleted. Producers and workers of
     * the queue must be stopped while it runs (they keep the count they read).
     *
     * @throws InvalidValueException when the queue still holds work
     */
    void repartition(QueueName queue, int count) {
        Partitions.requireValidCount(count);
        QueueLayout old = partitions.refreshLayout("repartition", queue);
        QueueStats stats = statistics.stats(queue);
        List<Integer> undelivered = call("repartition", queue, () -> old.all().stream()
                .filter(this::hasUndelivered).map(QueueKeys::partition).toList());
        if (!undelivered.isEmpty() || stats.pending() > 0 || stats.delayed() > 0 || stats.dead() > 0) {
            throw new InvalidValueException("queue " + queue + " still holds work (undelivered entries in partitions "
                    + undelivered + ", " + stats.pending() + " pending, " + stats.delayed() + " delayed, "
                    + stats.dead() + " dead letters): drain it (and redrive or purge its dead letters) before "
                    + "repartitioning");
        }
        call("repartition", queue, () -> {
            for (QueueKeys keys : old.all()) {
                redis.del(keys.all());
            }
            if (count == 1) {
                redis.del(partitions.namespace().meta(queue));
            } else {
                redis.hset(partitions.namespace().meta(queue), bytes("partitions"), number(count));
            }
            return null;
        });
        LOG.info("Queue {} repartitioned from {} to {} partitions", queue, old.partitions(), count);
        partitions.repartitioned(queue, count);
    }

    /** True when the partition's stream holds entries its group has not been delivered yet (or has no group). */
    private boolean hasUndelivered(QueueKeys keys) {
        List<StreamMessage<byte[], byte[]>> last = redis.xrevrange(keys.stream(), Range.unbounded(), Limit.from(1));
        if (last.isEmpty()) {
            return false;
        }
        return groups.read(keys).map(group -> EntryId.parse(last.get(0).getId())
                .compareTo(EntryId.parse(text(group.get("last-delivered-id")))) > 0).orElse(true);
    }

    /**
     * Deletes the queue's streams (with their consumer group), delayed sets, dead letters and the records of its dead
     * jobs and isolated suspects, of every partition, its uniqueness keys, its partition count, its pause and its
     * cancels.
     */
    void delete(QueueName queue) {
        QueueLayout layout = partitions.refreshLayout("delete", queue);
        call("delete", queue, () -> {
            // one DEL per partition: on a cluster, one command touches one slot
            layout.all().forEach(keys -> {
                redis.del(keys.all());
                deleteUniqueLocks(keys);
            });
            Namespace namespace = partitions.namespace();
            return redis.del(namespace.meta(queue), namespace.paused(queue), namespace.cancelled(queue));
        });
        partitions.forget(queue);
    }

    /** Deletes the partition's uniqueness locks, found by a SCAN of their prefix (a rare operator action). */
    private void deleteUniqueLocks(QueueKeys keys) {
        ScanArgs match = ScanArgs.Builder.matches(keys.uniqueLockPrefix() + "*").limit(500);
        KeyScanCursor<byte[]> cursor = redis.scan(match);
        while (true) {
            cursor.getKeys().forEach(lock -> redis.del(lock));
            if (cursor.isFinished()) {
                return;
            }
            cursor = redis.scan(cursor, match);
        }
    }
}
