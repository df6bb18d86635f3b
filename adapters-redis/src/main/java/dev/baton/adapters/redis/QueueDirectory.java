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
 * The queues Redis holds, found by their streams' keys ({@code baton:{q}:stream}, {@code baton:{q:p}:stream} for
 * partition {@code p}): a {@code SCAN}, a page of keys per command (over every node of a cluster), for operators.
 */
final class QueueDirectory {
    private static final Pattern STREAM_KEY = Pattern.compile("baton:\\{([A-Za-z0-9._-]+)(?::\\d+)?}:stream");
    private static final int PAGE = 1000;

    private final RedisClusterCommands<byte[], byte[]> redis;

    QueueDirectory(RedisClusterCommands<byte[], byte[]> redis) {
        this.redis = redis;
    }

    List<QueueName> queues() {
        return Calls.call("Redis scan of the queues", this::scan);
    }

    private List<QueueName> scan() {
        Set<String> names = new TreeSet<>();
        ScanArgs args = ScanArgs.Builder.matches("baton:{*}:stream").limit(PAGE);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<byte[]> page = redis.scan(cursor, args);
            for (byte[] key : page.getKeys()) {
                Matcher matcher = STREAM_KEY.matcher(Utf8.escaped(key));
                if (matcher.matches()) {
                    names.add(matcher.group(1));
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return names.stream().map(QueueName::of).toList();
    }
}
