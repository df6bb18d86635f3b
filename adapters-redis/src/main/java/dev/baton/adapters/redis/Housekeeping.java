package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.info;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.RedisValues.text;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import io.lettuce.core.Limit;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Keeps a queue's keys from growing without bound: trims acknowledged history past the retention (never work a
 * group still needs, see {@link TrimBound}) and removes consumers that hold nothing and have been idle too long, or
 * that earlier runs of a starting worker left.
 */
final class Housekeeping {
    private static final byte[] ALL = bytes("all");
    private static final byte[] NAMED = bytes("named");
    private static final long ANY_IDLE = -1;
    private final RedisClusterCommands<byte[], byte[]> redis;
    private final LuaScripts scripts;
    private final Partitions partitions;
    private final Groups groups;

    Housekeeping(RedisClusterCommands<byte[], byte[]> redis, LuaScripts scripts, Partitions partitions,
                 Groups groups) {
        this.redis = redis;
        this.scripts = scripts;
        this.partitions = partitions;
        this.groups = groups;
    }

    TrimOutcome trim(QueueName queue, Retention retention, Instant now) {
        QueueLayout layout = partitions.layout("trim", queue);
        Optional<EntryId> cutoff = TrimBound.cutoff(retention, now);
        if (cutoff.isEmpty()) {
            return TrimOutcome.NOTHING;
        }
        return call("trim", queue, () -> {
            long removed = 0;
            List<DeliveryId> keptFrom = new ArrayList<>();
            for (QueueKeys keys : layout.all()) {
                TrimOutcome outcome = trim(keys, cutoff.get());
                removed += outcome.removed();
                keptFrom.addAll(outcome.keptFrom());
            }
            return new TrimOutcome(removed, keptFrom);
        });
    }

    private TrimOutcome trim(QueueKeys keys, EntryId cutoff) {
        if (redis.exists(keys.stream()) == 0) {
            return TrimOutcome.NOTHING;
        }
        List<EntryId> neededByGroups = new ArrayList<>();
        boolean ownGroup = false;
        for (Object item : redis.xinfoGroups(keys.stream())) {
            Map<String, Object> group = info(item);
            ownGroup |= keys.groupName().equals(text(group.get("name")));
            neededByGroups.add(groups.needed(keys, group));
        }
        TrimBound bound = TrimBound.of(cutoff, ownGroup, neededByGroups);
        long removed = redis.xtrim(keys.stream(), XTrimArgs.Builder.minId(bound.minId().toString()));
        // records the atomic moves left behind (the group rolled back, an operator's XACK) go with their entries
        scripts.run(Script.FORGET_ISOLATION, ScriptOutputType.INTEGER, new byte[][] {keys.isolated()},
                Utf8.bytes(bound.minId().toString()));
        // held back when entries that the retention would drop are still needed
        boolean heldBack = bound.keptByGroups()
                .map(kept -> !redis.xrange(keys.stream(), kept, Limit.from(1)).isEmpty())
                .orElse(false);
        return new TrimOutcome(removed, heldBack ? List.of(new DeliveryId(keys.idOf(bound.needed().toString())))
                : List.of());
    }

    List<ConsumerName> removeIdleConsumers(QueueName queue, Duration idle) {
        return removeEmptyConsumers("remove idle consumers", queue, idle.toMillis(), keys -> List.of(ALL));
    }

    /**
     * Removes the runs of {@code name} ({@link ConsumerName#isRunOf}) that own nothing and that no live worker holds,
     * whatever their idle time.
     */
    List<ConsumerName> removeStaleConsumers(QueueName queue, ConsumerName name, Set<ConsumerName> live) {
        return removeEmptyConsumers("remove stale consumers", queue, ANY_IDLE, keys -> {
            List<byte[]> named = new ArrayList<>(List.of(NAMED));
            consumersOf(keys).stream().filter(consumer -> consumer.isRunOf(name) && !live.contains(consumer))
                    .forEach(consumer -> named.add(bytes(consumer.value())));
            return named;
        });
    }

    /** @param which the script's consumers to consider, per partition: {@link #ALL}, or {@link #NAMED} and names */
    private List<ConsumerName> removeEmptyConsumers(String operation, QueueName queue, long idleMillis,
                                                    Function<QueueKeys, List<byte[]>> which) {
        QueueLayout layout = partitions.layout(operation, queue);
        return call(operation, queue, () -> {
            Set<String> removed = new LinkedHashSet<>();
            Set<String> remaining = new LinkedHashSet<>();
            for (QueueKeys keys : layout.all()) {
                if (groups.read(keys).isEmpty()) {
                    continue;
                }
                List<byte[]> args = new ArrayList<>(List.of(keys.group(), number(idleMillis)));
                args.addAll(which.apply(keys));
                List<Object> names = scripts.run(Script.REMOVE_EMPTY_CONSUMERS, ScriptOutputType.MULTI,
                        new byte[][] {keys.stream()}, args.toArray(byte[][]::new));
                names.forEach(name -> removed.add(text(name)));
                if (layout.partitions() > 1) {
                    consumersOf(keys).forEach(consumer -> remaining.add(consumer.value()));
                }
            }
            // a consumer still holding entries in some partition is kept there: it is not gone
            removed.removeAll(remaining);
            return removed.stream().map(ConsumerName::of).toList();
        });
    }

    private List<ConsumerName> consumersOf(QueueKeys keys) {
        return redis.xinfoConsumers(keys.stream(), keys.group()).stream()
                .map(consumer -> ConsumerName.of(text(info(consumer).get("name")))).toList();
    }
}
