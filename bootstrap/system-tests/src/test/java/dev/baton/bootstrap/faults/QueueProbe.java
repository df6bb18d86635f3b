package dev.baton.bootstrap.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads a queue's Redis keys directly (Lettuce, bytes), independently of the product's own code, and writes what
 * the product never would (raw entries, a rolled-back group). Every question goes over all the queue's partitions
 * ({@link KeyLayout}); on a Redis Cluster, each to the master of its partition.
 */
final class QueueProbe implements AutoCloseable {
    private static final int PAGE = 1000;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Link link;
    private final KeyLayout keys;

    /** A connection and the commands it serves: a standalone Redis's or a cluster's (routed by key). */
    private record Link(AbstractRedisClient client, StatefulConnection<byte[], byte[]> connection,
                        RedisClusterCommands<byte[], byte[]> commands) {

        static Link to(RedisTarget target) {
            if (!target.isCluster()) {
                RedisClient client = RedisClient.create(seed(target.uri()));
                StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
                return new Link(client, connection, connection.sync());
            }
            List<RedisURI> seeds = Stream.concat(Stream.of(target.uri()),
                    Stream.of(target.clusterNodes().split(",")).map(node -> "redis://" + node))
                    .map(Link::seed).toList();
            RedisClusterClient client = RedisClusterClient.create(seeds);
            // a killed master's slots move to its replica: learn it at once, not on the next reconnect
            client.setOptions(ClusterClientOptions.builder().topologyRefreshOptions(ClusterTopologyRefreshOptions
                    .builder().enablePeriodicRefresh(Duration.ofSeconds(1)).enableAllAdaptiveRefreshTriggers()
                    .build()).build());
            StatefulRedisClusterConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
            return new Link(client, connection, connection.sync());
        }

        private static RedisURI seed(String uri) {
            RedisURI seed = RedisURI.create(uri);
            seed.setTimeout(TIMEOUT);
            return seed;
        }
    }

    /** An unpartitioned queue on one Redis server. */
    QueueProbe(String redisUri, String queue) {
        this(RedisTarget.server(redisUri), new KeyLayout(queue, 1));
    }

    QueueProbe(RedisTarget target, KeyLayout keys) {
        this.link = Link.to(target);
        this.keys = keys;
    }

    String queue() {
        return keys.queue();
    }

    KeyLayout keys() {
        return keys;
    }

    RedisClusterCommands<byte[], byte[]> redis() {
        return link.commands();
    }

    /** Entries delivered to the group and not yet acknowledged (0 where the group does not exist). */
    long pending() {
        return keys.indexes().filter(this::groupExists)
                .mapToLong(p -> redis().xpending(stream(p), group()).getCount()).sum();
    }

    /** The entries pending for one consumer, as {@link KeyLayout#entryRef}s. */
    List<String> pendingOf(String consumer) {
        List<String> refs = new ArrayList<>();
        keys.indexes().filter(this::groupExists).forEach(p -> redis().xpending(stream(p),
                        Consumer.from(group(), bytes(consumer)), Range.unbounded(), Limit.from(100_000))
                .forEach(message -> refs.add(keys.entryRef(p, message.getId()))));
        return refs;
    }

    long delayed() {
        return keys.indexes().mapToLong(p -> redis().zcard(bytes(keys.delayed(p)))).sum();
    }

    long streamLength() {
        return keys.indexes().mapToLong(p -> redis().xlen(stream(p))).sum();
    }

    /** How far the group read each partition's stream: it moves on as workers lease, a reclaim does not move it. */
    List<String> deliveredUpTo() {
        return keys.indexes().mapToObj(p -> groupExists(p) ? lastDeliveredId(p) : "none").toList();
    }

    /** True when the group has read everything every partition's stream holds (no undelivered entry). */
    boolean allDelivered() {
        return keys.indexes().allMatch(this::allDelivered);
    }

    /** The {@code job_id} field of each given entry ({@link KeyLayout#entryRef}) that still exists. */
    Map<String, String> jobIdsOf(List<String> refs) {
        Map<String, String> jobIds = new LinkedHashMap<>();
        for (String ref : refs) {
            String id = keys.streamIdOfRef(ref);
            redis().xrange(stream(keys.partitionOfRef(ref)), Range.create(id, id)).forEach(message ->
                    Optional.ofNullable(field(message.getBody(), "job_id")).ifPresent(j -> jobIds.put(ref, j)));
        }
        return jobIds;
    }

    /** Every dead letter, oldest first within a partition, its fields decoded as UTF-8 (invalid bytes replaced). */
    List<Map<String, String>> deadLetters() {
        List<Map<String, String>> letters = new ArrayList<>();
        keys.indexes().forEach(p -> entries(bytes(keys.dead(p))).forEach(message -> {
            Map<String, String> fields = new LinkedHashMap<>();
            message.getBody().forEach((k, v) -> fields.put(text(k), text(v)));
            fields.put("@id", keys.entryRef(p, message.getId()));
            letters.add(fields);
        }));
        return letters;
    }

    /** A field of the dead letter of {@code jobId}, byte for byte as Redis holds it. */
    Optional<byte[]> deadLetterBytes(String jobId, String field) {
        return keys.indexes().boxed().flatMap(p -> entries(bytes(keys.dead(p))).stream())
                .filter(message -> jobId.equals(field(message.getBody(), "job_id")))
                .flatMap(message -> message.getBody().entrySet().stream())
                .filter(entry -> text(entry.getKey()).equals(field))
                .map(Map.Entry::getValue).findFirst();
    }

    /**
     * Every job id Redis holds a trace of: a stream entry (undelivered, pending or acknowledged: workers never delete
     * one, only trimming past the retention does), a delayed job or a dead letter. A job enqueued but without a trace
     * and without a completion row was lost by Redis.
     */
    Set<String> tracedJobIds() {
        Set<String> ids = new HashSet<>();
        keys.indexes().forEach(p -> {
            Stream.concat(entries(stream(p)).stream(), entries(bytes(keys.dead(p))).stream())
                    .map(message -> field(message.getBody(), "job_id")).filter(id -> id != null).forEach(ids::add);
            redis().zrange(bytes(keys.delayed(p)), 0, -1).forEach(member -> delayedJobId(member).ifPresent(ids::add));
        });
        return ids;
    }

    /** Appends an entry verbatim to the first partition's stream, bypassing the product's validation. @return its id */
    String appendRaw(Map<byte[], byte[]> fields) {
        return redis().xadd(stream(0), new XAddArgs(), fields);
    }

    /**
     * What a failover to a stale replica does: the group forgets deliveries and acknowledgements after {@code id}, in
     * every partition.
     */
    void rollBackGroupTo(String id) {
        keys.indexes().forEach(p -> redis().xgroupSetid(StreamOffset.from(stream(p), id), group()));
    }

    /** Makes every write so far reach {@code replicas} replicas, or fails (a single server's replicas). */
    void awaitReplicated(int replicas) {
        redis().set(bytes("baton-faults:replication-marker"), bytes(keys.queue()));
        Long acknowledged = redis().waitForReplication(replicas, 10_000);
        if (acknowledged == null || acknowledged < replicas) {
            throw new IllegalStateException("only " + acknowledged + " replicas acknowledged the writes");
        }
    }

    /**
     * Deletes every partition's keys (one slot per command, as a cluster requires), the partition count, the pause
     * and the cancels.
     */
    void deleteKeys() {
        keys.indexes().forEach(p -> redis().del(stream(p), bytes(keys.delayed(p)), bytes(keys.dead(p)),
                bytes(keys.deadJobs(p)), bytes(keys.isolated(p))));
        redis().del(bytes(keys.meta()), bytes(keys.paused()), bytes(keys.cancelled()));
    }

    private byte[] stream(int partition) {
        return bytes(keys.stream(partition));
    }

    private byte[] group() {
        return bytes(keys.group());
    }

    /** Every entry of a stream, oldest first, in pages. */
    private List<StreamMessage<byte[], byte[]>> entries(byte[] key) {
        List<StreamMessage<byte[], byte[]>> entries = new ArrayList<>();
        String from = "-";
        while (true) {
            List<StreamMessage<byte[], byte[]>> page = redis().xrange(key, Range.create(from, "+"), Limit.from(PAGE));
            for (StreamMessage<byte[], byte[]> message : page) {
                if (!message.getId().equals(from)) {
                    entries.add(message);
                }
            }
            if (page.size() < PAGE) {
                return entries;
            }
            from = page.get(page.size() - 1).getId();
        }
    }

    private boolean allDelivered(int partition) {
        if (!groupExists(partition)) {
            return redis().exists(stream(partition)) == 0;
        }
        List<StreamMessage<byte[], byte[]>> last = redis().xrevrange(stream(partition), Range.unbounded(),
                Limit.from(1));
        if (last.isEmpty()) {
            return true;
        }
        return compareIds(lastDeliveredId(partition), last.get(0).getId()) >= 0;
    }

    private boolean groupExists(int partition) {
        if (redis().exists(stream(partition)) == 0) {
            return false;
        }
        return redis().xinfoGroups(stream(partition)).stream().anyMatch(g -> groupInfo(g).containsKey("name"));
    }

    private String lastDeliveredId(int partition) {
        for (Object info : redis().xinfoGroups(stream(partition))) {
            Map<String, Object> fields = groupInfo(info);
            if (keys.group().equals(fields.get("name"))) {
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

    /** A delayed member is a JSON array: a unique token, then the job's field names and values (docs/REDIS.md). */
    private static Optional<String> delayedJobId(byte[] member) {
        try {
            JsonNode array = JSON.readTree(member);
            for (int i = 1; i + 1 < array.size(); i += 2) {
                if ("job_id".equals(array.get(i).asText())) {
                    return Optional.of(array.get(i + 1).asText());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("a delayed member that is not JSON: " + text(member), e);
        }
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
        link.connection().close();
        link.client().shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
