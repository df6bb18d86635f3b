package dev.baton.adapters.redis;

import dev.baton.domain.QueueListing;
import dev.baton.domain.QueueName;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The queues Redis holds in one namespace, found by their streams' keys ({@code <namespace>:{q}:stream},
 * {@code <namespace>:{q:p}:stream} for partition {@code p}): a {@code SCAN}, a page of keys per command (over every
 * node of a cluster), then a {@code TYPE} per key found, for operators. A queue with a key of another type there (a
 * stray {@code SET}) is listed as damaged, so that one bad key cannot fail the listing. Other namespaces' queues are
 * not listed.
 */
final class QueueDirectory {
    private static final int PAGE = 1000;

    private final RedisClusterCommands<byte[], byte[]> redis;
    private final Namespace namespace;
    private final Pattern streamKey;

    QueueDirectory(RedisClusterCommands<byte[], byte[]> redis, Namespace namespace) {
        this.redis = redis;
        this.namespace = namespace;
        this.streamKey = namespace.streamKey();
    }

    QueueListing queues() {
        return Calls.call("Redis scan of the queues", () -> {
            List<QueueName> names = new ArrayList<>();
            Map<QueueName, String> damaged = new HashMap<>();
            scan().forEach((name, keys) -> problem(keys).ifPresentOrElse(
                    problem -> damaged.put(QueueName.of(name), problem), () -> names.add(QueueName.of(name))));
            return new QueueListing(names, damaged);
        });
    }

    /** The stream keys of each queue, by name. */
    private Map<String, List<byte[]>> scan() {
        Map<String, List<byte[]>> keys = new TreeMap<>();
        ScanArgs args = ScanArgs.Builder.matches(namespace.streamPattern()).limit(PAGE);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<byte[]> page = redis.scan(cursor, args);
            for (byte[] key : page.getKeys()) {
                Matcher matcher = streamKey.matcher(Utf8.escaped(key));
                if (matcher.matches()) {
                    keys.computeIfAbsent(matcher.group(1), name -> new ArrayList<>()).add(key);
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return keys;
    }

    /** What is wrong with a queue's stream keys: one holds another type than a stream (or is gone since). */
    private Optional<String> problem(List<byte[]> streamKeys) {
        for (byte[] key : streamKeys) {
            String type = redis.type(key);
            if (!"stream".equals(type) && !"none".equals(type)) {
                return Optional.of("key " + Utf8.escaped(key) + " holds a " + type + " where the queue's stream"
                        + " belongs: rename or delete it");
            }
        }
        return Optional.empty();
    }
}
