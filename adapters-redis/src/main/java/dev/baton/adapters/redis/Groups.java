package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.RedisValues.text;
import static dev.baton.adapters.redis.Utf8.bytes;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.models.stream.PendingMessages;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A partition's consumer group as Redis keeps it: created when missing, read as XINFO GROUPS shows it, and the
 * oldest entry it still needs (what trimming must keep, and where a search for held work may stop).
 */
final class Groups {
    private final RedisClusterCommands<byte[], byte[]> redis;

    Groups(RedisClusterCommands<byte[], byte[]> redis) {
        this.redis = redis;
    }

    /** Creates the group (and the stream) at {@code start} unless it exists: many workers may race to create it. */
    void create(QueueKeys keys, String start) {
        try {
            redis.xgroupCreate(StreamOffset.from(keys.stream(), start), keys.group(),
                    new XGroupCreateArgs().mkstream(true));
        } catch (RedisCommandExecutionException e) {
            if (!String.valueOf(e.getMessage()).startsWith("BUSYGROUP")) {
                throw e;
            }
        }
    }

    /** The queue's group as XINFO GROUPS shows it; empty when the stream or the group does not exist. */
    Optional<Map<String, Object>> read(QueueKeys keys) {
        if (redis.exists(keys.stream()) == 0) {
            return Optional.empty();
        }
        return own(keys, redis.xinfoGroups(keys.stream()));
    }

    /** The queue's own group among the stream's groups (other clients may read the stream with groups of theirs). */
    static Optional<Map<String, Object>> own(QueueKeys keys, List<Object> groups) {
        return groups.stream().map(RedisValues::info)
                .filter(group -> keys.groupName().equals(text(group.get("name"))))
                .findFirst();
    }

    /**
     * The lowest id that {@code group} (as read before) still needs: its oldest pending entry, and the first one
     * undelivered when it was read (what was delivered since comes after it).
     */
    EntryId needed(QueueKeys keys, Map<String, Object> group) {
        EntryId needed = EntryId.parse(text(group.get("last-delivered-id"))).next();
        if ((Long) group.get("pending") > 0) {
            PendingMessages summary = redis.xpending(keys.stream(), bytes(text(group.get("name"))));
            // none when the entries pending as the group was read were acknowledged since
            if (summary.getCount() > 0) {
                needed = EntryId.min(needed, EntryId.parse(summary.getMessageIds().getLower().getValue()));
            }
        }
        return needed;
    }
}
