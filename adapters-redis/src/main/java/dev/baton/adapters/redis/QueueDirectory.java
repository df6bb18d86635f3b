package dev.baton.adapters.redis;

import dev.baton.domain.QueueName;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The queues Redis holds in one namespace, found by their streams' keys ({@code <namespace>:{q}:stream},
 * {@code <namespace>:{q:p}:stream} for partition {@code p}): a {@code SCAN}, a page of keys per command (over every
 * node of a cluster), for operators. Other namespaces' queues are not listed.
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

    List<QueueName> queues() {
        return Calls.call("Redis scan of the queues", this::scan);
    }

    private List<QueueName> scan() {
        Set<String> names = new TreeSet<>();
        ScanArgs args = ScanArgs.Builder.matches(namespace.streamPattern()).limit(PAGE);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<byte[]> page = redis.scan(cursor, args);
            for (byte[] key : page.getKeys()) {
                Matcher matcher = streamKey.matcher(Utf8.escaped(key));
                if (matcher.matches()) {
                    names.add(matcher.group(1));
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return names.stream().map(QueueName::of).toList();
    }
}
