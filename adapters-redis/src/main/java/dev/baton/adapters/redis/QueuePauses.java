package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.domain.QueueName;
import io.lettuce.core.RedisFuture;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which queues an operator paused: one key per queue ({@link Namespace#paused}), in the queue's own slot next to its
 * metadata whatever its partitions; the key's presence is the pause. It outlives workers, and leaves with the queue.
 */
final class QueuePauses {
    private static final byte[] PAUSED = bytes("1");

    private final Link connection;
    private final Namespace namespace;
    private final Replies replies;

    QueuePauses(Link connection, Namespace namespace, Replies replies) {
        this.connection = connection;
        this.namespace = namespace;
        this.replies = replies;
    }

    void pause(QueueName queue) {
        call("pause", queue, () -> connection.sync().set(namespace.paused(queue), PAUSED));
    }

    void resume(QueueName queue) {
        call("resume", queue, () -> connection.sync().del(namespace.paused(queue)));
    }

    /** One EXISTS per queue, all sent before the first reply is awaited: one round trip (per node). */
    Set<QueueName> paused(Collection<QueueName> queues) {
        Map<QueueName, RedisFuture<Long>> asked = new LinkedHashMap<>();
        for (QueueName queue : queues) {
            asked.put(queue, connection.async().exists(namespace.paused(queue)));
        }
        return asked.entrySet().stream()
                .filter(reply -> call("read pause", reply.getKey(), () -> replies.get(reply.getValue())) > 0)
                .map(Map.Entry::getKey)
                .collect(Collectors.toUnmodifiableSet());
    }
}
