package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.Utf8.ascii;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this process knows of each queue's partitions: their count, read from Redis once and checked against the one
 * it declared (producers and workers must never route to partitions that do not exist), and whether their consumer
 * groups exist. Every other part asks here for a queue's {@link QueueLayout}.
 */
final class Partitions {
    private static final Logger LOG = LoggerFactory.getLogger(Partitions.class);
    /** The most partitions a queue may have. */
    private static final int MAX_PARTITIONS = 1024;

    private final RedisClusterCommands<byte[], byte[]> redis;
    private final LuaScripts scripts;
    private final Groups groups;
    private final Namespace namespace;
    private final String groupSuffix;
    private final boolean groupStartsAtEnd;
    private final Set<QueueName> declared = ConcurrentHashMap.newKeySet();
    /** Partition counts read from Redis, and those this process declared (a later mismatch is an error). */
    private final Map<QueueName, Integer> partitionCounts = new ConcurrentHashMap<>();
    private final Map<QueueName, Integer> declaredCounts = new ConcurrentHashMap<>();

    Partitions(RedisClusterCommands<byte[], byte[]> redis, LuaScripts scripts, Groups groups, Namespace namespace,
               String groupSuffix, boolean groupStartsAtEnd) {
        this.redis = redis;
        this.scripts = scripts;
        this.groups = groups;
        this.namespace = namespace;
        this.groupSuffix = groupSuffix;
        this.groupStartsAtEnd = groupStartsAtEnd;
    }

    /** The namespace of every key this adapter uses. */
    Namespace namespace() {
        return namespace;
    }

    static void requireValidCount(int partitions) {
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new InvalidValueException("a queue has 1.." + MAX_PARTITIONS + " partitions, got " + partitions);
        }
    }

    /**
     * Declares that {@code queue} has {@code partitions} partitions: recorded in Redis on the first declaration,
     * checked on every later one (and by every later {@link #declare}).
     *
     * @throws InvalidValueException when the queue already has another partition count
     */
    void declarePartitions(QueueName queue, int partitions) {
        requireValidCount(partitions);
        QueueKeys unpartitioned = QueueKeys.of(namespace, queue, groupSuffix, 0, 1);
        Long recorded = call("declare partitions", queue, () -> scripts.run(Script.DECLARE_PARTITIONS,
                ScriptOutputType.INTEGER, new byte[][] {namespace.meta(queue), unpartitioned.stream(),
                        unpartitioned.delayed(), unpartitioned.dead()}, number(partitions)));
        if (recorded != partitions) {
            throw mismatch(queue, recorded.intValue(), partitions);
        }
        declaredCounts.put(queue, partitions);
        partitionCounts.put(queue, partitions);
        declared.remove(queue);
        declare(queue);
    }

    /**
     * Takes note that {@code queue} now has {@code partitions} partitions (it was just repartitioned) and creates
     * their groups.
     */
    void repartitioned(QueueName queue, int partitions) {
        declaredCounts.remove(queue);
        partitionCounts.put(queue, partitions);
        declared.remove(queue);
        declare(queue);
    }

    /** Forgets everything known of {@code queue} (it was just deleted). */
    void forget(QueueName queue) {
        declared.remove(queue);
        partitionCounts.remove(queue);
        declaredCounts.remove(queue);
    }

    /** The queue's layout; its partition count is read from Redis on first use (failing as {@code operation}). */
    QueueLayout layout(String operation, QueueName queue) {
        Integer known = partitionCounts.get(queue);
        return known != null ? new QueueLayout(namespace, queue, groupSuffix, known) : refreshLayout(operation, queue);
    }

    /** Reads the partition count from Redis; a count different from the one this process declared is an error. */
    QueueLayout refreshLayout(String operation, QueueName queue) {
        byte[] recorded = call(operation, queue, () -> redis.hget(namespace.meta(queue), bytes("partitions")));
        int partitions = recorded == null ? 1 : Integer.parseInt(ascii(recorded));
        requireDeclaredCount(queue, partitions);
        partitionCounts.put(queue, partitions);
        return new QueueLayout(namespace, queue, groupSuffix, partitions);
    }

    /** Creates the group of every partition, where missing (see {@link RedisAdapter.Config#groupStartsAtEnd}). */
    void declare(QueueName queue) {
        QueueLayout layout = refreshLayout("declare", queue);
        call("declare", queue, () -> {
            layout.all().forEach(keys -> groups.create(keys, groupStartsAtEnd ? "$" : "0"));
            declared.add(queue);
            return null;
        });
    }

    /** Declares the queue unless this process already did: writers need its groups before the first entry. */
    void ensureDeclared(QueueName queue) {
        if (!declared.contains(queue)) {
            declare(queue);
        }
    }

    /** Runs a command that needs the group; recreates the group once when Redis lost it (restart without data). */
    <T> T withGroup(String operation, QueueName queue, Supplier<T> action) {
        return call(operation, queue, () -> {
            try {
                return action.get();
            } catch (RedisCommandExecutionException e) {
                if (!String.valueOf(e.getMessage()).contains("NOGROUP")) {
                    throw e;
                }
                QueueLayout layout = layout(operation, queue);
                LOG.warn("Consumer group {} of queue {} was missing (did Redis restart without its data?): "
                        + "recreated it from the start of the stream", layout.partition(0).groupName(), queue);
                layout.all().forEach(keys -> groups.create(keys, "0"));
                declared.add(queue);
                return action.get();
            }
        });
    }

    private void requireDeclaredCount(QueueName queue, int recorded) {
        Integer expected = declaredCounts.get(queue);
        if (expected != null && expected != recorded) {
            throw mismatch(queue, recorded, expected);
        }
    }

    private static InvalidValueException mismatch(QueueName queue, int recorded, int declared) {
        return new InvalidValueException("queue " + queue + " has " + recorded + " partition(s) in Redis, not the "
                + declared + " declared here: use --partitions " + recorded
                + ", or repartition the drained queue (see docs/SCALING.md)");
    }
}
