package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.Utf8.ascii;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.adapters.redis.QueueLayout.Located;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entries leased and not finished yet (each partition group's pending list): their holder extends its leases and
 * acknowledges what it finished; a reclaimer takes over the entries whose holder went silent.
 */
final class PendingEntries {
    private static final Logger LOG = LoggerFactory.getLogger(PendingEntries.class);

    private final RedisClusterCommands<byte[], byte[]> redis;
    private final LuaScripts scripts;
    private final Partitions partitions;
    private final Deliveries deliveries;

    PendingEntries(RedisClusterCommands<byte[], byte[]> redis, LuaScripts scripts, Partitions partitions,
                   Deliveries deliveries) {
        this.redis = redis;
        this.scripts = scripts;
        this.partitions = partitions;
        this.deliveries = deliveries;
    }

    void acknowledge(QueueName queue, Collection<DeliveryId> ids) {
        Map<QueueKeys, List<String>> byPartition = partitions.layout("acknowledge", queue).byPartition(ids);
        call("acknowledge", queue, () -> {
            // a script: the isolation records go, the uniqueness keys the entries hold are released, and the
            // totals count
            byPartition.forEach((keys, all) -> IdBatches.of(all).forEach(batch -> scripts.run(Script.ACKNOWLEDGE,
                    ScriptOutputType.INTEGER, acknowledgementKeys(keys), acknowledgementArgs(keys, batch))));
            return null;
        });
    }

    /** The keys of {@link Script#ACKNOWLEDGE} on a partition. */
    static byte[][] acknowledgementKeys(QueueKeys keys) {
        return new byte[][] {keys.stream(), keys.isolated(), keys.uniqueEntries(), keys.totals()};
    }

    /** The arguments of {@link Script#ACKNOWLEDGE} for a batch of a partition's entry ids. */
    static byte[][] acknowledgementArgs(QueueKeys keys, List<String> entryIds) {
        List<byte[]> args = new ArrayList<>(entryIds.size() + 1);
        args.add(keys.group());
        entryIds.forEach(id -> args.add(bytes(id)));
        return args.toArray(byte[][]::new);
    }

    OptionalLong isolate(Delivery.Leased delivery, ConsumerName consumer) {
        Optional<Located> located = partitions.layout("isolate", delivery.queue()).locate(delivery.id().value());
        if (located.isEmpty()) {
            return OptionalLong.empty();
        }
        QueueKeys keys = located.get().keys();
        Long isolated = call("isolate", delivery.queue(), () -> scripts.run(Script.ISOLATE,
                ScriptOutputType.INTEGER, new byte[][] {keys.stream(), keys.isolated()}, keys.group(),
                bytes(consumer.value()), bytes(located.get().entryId())));
        return isolated == null ? OptionalLong.empty() : OptionalLong.of(isolated);
    }

    Set<DeliveryId> extendLeases(QueueName queue, ConsumerName consumer, Collection<DeliveryId> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        QueueLayout layout = partitions.layout("extend leases", queue);
        Map<QueueKeys, List<String>> byPartition = layout.byPartition(ids);
        return partitions.withGroup("extend leases", queue, () -> {
            Set<DeliveryId> result = new LinkedHashSet<>();
            // an id that names no partition of the queue is not owned by anyone
            ids.stream().filter(id -> layout.locate(id.value()).isEmpty()).forEach(result::add);
            byPartition.forEach((keys, entryIds) -> {
                List<byte[]> args = new ArrayList<>(entryIds.size() + 2);
                args.add(keys.group());
                args.add(bytes(consumer.value()));
                entryIds.forEach(id -> args.add(bytes(id)));
                List<Object> lost = scripts.run(Script.EXTEND_LEASES, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream()}, args.toArray(byte[][]::new));
                lost.forEach(id -> result.add(new DeliveryId(keys.idOf(ascii((byte[]) id)))));
            });
            return result;
        });
    }

    Reclaimed reclaimAbandoned(QueueName queue, ConsumerName consumer, Duration minIdle, int max) {
        QueueLayout layout = partitions.layout("reclaim", queue);
        Reclaimed reclaimed = partitions.withGroup("reclaim", queue, () -> {
            List<Delivery> taken = new ArrayList<>();
            List<DeliveryId> vanished = new ArrayList<>();
            for (QueueKeys keys : layout.all()) {
                if (taken.size() == max) {
                    break;
                }
                List<Object> reply = scripts.run(Script.RECLAIM_ABANDONED, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream(), keys.isolated(), keys.uniqueEntries()}, keys.group(),
                        bytes(consumer.value()),
                        number(minIdle.toMillis()), number(max - taken.size()));
                for (Object item : (List<?>) reply.get(0)) {
                    taken.add(deliveries.redelivery(keys, (List<?>) item));
                }
                ((List<?>) reply.get(1)).forEach(id -> vanished.add(new DeliveryId(keys.idOf(ascii((byte[]) id)))));
            }
            return new Reclaimed(taken, vanished);
        });
        if (!reclaimed.vanished().isEmpty()) {
            LOG.warn("{} pending entries of queue {} had vanished from the stream (trimmed or deleted while pending)"
                    + " and were removed from the pending list: {}", reclaimed.vanished().size(), queue,
                    reclaimed.vanished());
        }
        return reclaimed;
    }
}
