package dev.baton.bootstrap.faults;

import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.models.stream.PendingMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a queue's Redis keys directly (Lettuce, bytes), independently of the product's own code, and writes what
 * the product never would (raw entries, a rolled-back group). Keys: {@code baton:{Q}:stream}, {@code :delayed},
 * {@code :dead}; group {@code Q-workers}.
 */
final class QueueProbe implements AutoCloseable {
    private static final int PAGE = 1000;

    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final String queue;
    private final byte[] stream;
    private final byte[] delayed;
    private final byte[] dead;
    private final byte[] group;

    QueueProbe(String redisUri, String queue) {
        RedisURI uri = RedisURI.create(redisUri);
        uri.setTimeout(Duration.ofSeconds(10));
        this.client = RedisClient.create(uri);
        this.connection = client.connect(ByteArrayCodec.INSTANCE);
        this.queue = queue;
        this.stream = bytes("baton:{" + queue + "}:stream");
        this.delayed = bytes("baton:{" + queue + "}:delayed");
        this.dead = bytes("baton:{" + queue + "}:dead");
        this.group = bytes(queue + "-workers");
    }

    String queue() {
        return queue;
    }

    RedisCommands<byte[], byte[]> redis() {
        return connection.sync();
    }

    /** Entries delivered to the group and not yet acknowledged (0 when the group does not exist). */
    long pending() {
        if (!groupExists()) {
            return 0;
        }
        return redis().xpending(stream, group).getCount();
    }

    /** The stream ids pending for one consumer. */
    List<String> pendingOf(String consumer) {
        if (!groupExists()) {
            return List.of();
        }
        List<PendingMessage> messages = redis().xpending(stream, Consumer.from(group, bytes(consumer)),
                Range.unbounded(), Limit.from(100_000));
        return messages.stream().map(PendingMessage::getId).toList();
    }

    long delayed() {
        return redis().zcard(delayed);
    }

    long streamLength() {
        return redis().xlen(stream);
    }

    /** True when the group has read everything the stream holds (no undelivered entry). */
    boolean allDelivered() {
        if (!groupExists()) {
            return redis().exists(stream) == 0;
        }
        List<StreamMessage<byte[], byte[]>> last = redis().xrevrange(stream, Range.unbounded(), Limit.from(1));
        if (last.isEmpty()) {
            return true;
        }
        return compareIds(lastDeliveredId(), last.get(0).getId()) >= 0;
    }

    /** The {@code job_id} field of each given stream entry that still exists. */
    Map<String, String> jobIdsOf(List<String> entryIds) {
        Map<String, String> jobIds = new LinkedHashMap<>();
        for (String id : entryIds) {
            redis().xrange(stream, Range.create(id, id)).forEach(message ->
                    Optional.ofNullable(field(message.getBody(), "job_id")).ifPresent(j -> jobIds.put(id, j)));
        }
        return jobIds;
    }

    /** Every dead letter, oldest first, its fields decoded as UTF-8 (invalid bytes replaced). */
    List<Map<String, String>> deadLetters() {
        List<Map<String, String>> letters = new ArrayList<>();
        String from = "-";
        while (true) {
            List<StreamMessage<byte[], byte[]>> page = redis().xrange(dead,
                    Range.create(from, "+"), Limit.from(PAGE));
            for (StreamMessage<byte[], byte[]> message : page) {
                if (!message.getId().equals(from)) {
                    Map<String, String> fields = new LinkedHashMap<>();
                    message.getBody().forEach((k, v) -> fields.put(text(k), text(v)));
                    fields.put("@id", message.getId());
                    letters.add(fields);
                }
            }
            if (page.size() < PAGE) {
                return letters;
            }
            from = page.get(page.size() - 1).getId();
        }
    }

    /** A field of the dead letter of {@code jobId}, byte for byte as Redis holds it. */
    Optional<byte[]> deadLetterBytes(String jobId, String field) {
        for (StreamMessage<byte[], byte[]> message : redis().xrange(dead, Range.unbounded())) {
            if (jobId.equals(field(message.getBody(), "job_id"))) {
                for (Map.Entry<byte[], byte[]> entry : message.getBody().entrySet()) {
                    if (text(entry.getKey()).equals(field)) {
                        return Optional.of(entry.getValue());
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Appends an entry verbatim, bypassing the product's validation. @return its id */
    String appendRaw(Map<byte[], byte[]> fields) {
        return redis().xadd(stream, new XAddArgs(), fields);
    }

    /** What a failover to a stale replica does: the group forgets deliveries and acknowledgements after {@code id}. */
    void rollBackGroupTo(String id) {
        redis().xgroupSetid(StreamOffset.from(stream, id), group);
    }

    /** Makes every write so far reach {@code replicas} replicas, or fails. */
    void awaitReplicated(int replicas) {
        redis().set(bytes("baton-faults:replication-marker"), bytes(queue));
        Long acknowledged = redis().waitForReplication(replicas, 10_000);
        if (acknowledged == null || acknowledged < replicas) {
            throw new IllegalStateException("only " + acknowledged + " replicas acknowledged the writes");
        }
    }

    void deleteKeys() {
        redis().del(stream, delayed, dead);
    }

    private boolean groupExists() {
        if (redis().exists(stream) == 0) {
            return false;
        }
        return redis().xinfoGroups(stream).stream().anyMatch(g -> groupInfo(g).containsKey("name"));
    }

    private String lastDeliveredId() {
        for (Object info : redis().xinfoGroups(stream)) {
            Map<String, Object> fields = groupInfo(info);
            if (queue.concat("-workers").equals(fields.get("name"))) {
                return String.valueOf(fields.get("last-delivered-id"));
            }
        }
        return "0-0";
    }

    /** XINFO GROUPS answers flat lists of alternating names and values. */
    private static Map<String, Object> groupInfo(Object info) {
        Map<String, Object> fields = new LinkedHashMap<>();
        List<?> flat = (List<?>) info;
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            Object value = flat.get(i + 1);
            fields.put(text((byte[]) flat.get(i)), value instanceof byte[] raw ? text(raw) : value);
        }
        return fields;
    }

    static int compareIds(String a, String b) {
        String[] x = a.split("-");
        String[] y = b.split("-");
        int major = Long.compareUnsigned(Long.parseUnsignedLong(x[0]), Long.parseUnsignedLong(y[0]));
        return major != 0 ? major : Long.compareUnsigned(Long.parseUnsignedLong(x[1]), Long.parseUnsignedLong(y[1]));
    }

    private static String field(Map<byte[], byte[]> body, String name) {
        for (Map.Entry<byte[], byte[]> entry : body.entrySet()) {
            if (text(entry.getKey()).equals(name)) {
                return text(entry.getValue());
            }
        }
        return null;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
