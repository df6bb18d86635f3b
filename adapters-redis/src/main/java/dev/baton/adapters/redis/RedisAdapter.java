package dev.baton.adapters.redis;

import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.port.out.TransportMemory;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Redis adapter's entry point: connects to Redis (standalone, or a Redis Cluster) and provides the stream
 * transport on Redis Streams as its four ports ({@link #publisher}, {@link #leases}, {@link #maintenance},
 * {@link #administration}: one object behind them, sharing the connections and scripts), and the partitioning of
 * queues. Thread-safe; one instance per process is enough. The wire protocol is described in docs/REDIS.md,
 * partitions and clusters in docs/SCALING.md.
 */
public final class RedisAdapter implements AutoCloseable {
    private static final Duration MAX_PING_TIMEOUT = Duration.ofSeconds(2);

    /**
     * @param uri              {@code redis://[:password@]host[:port][/db]} or {@code rediss://...} for TLS; or
     *                         {@code redis-sentinel://[:password@]host:port[,host:port…][/db]#masterName}
     *                         ({@code rediss-sentinel://} for TLS): the Sentinels, asked for the master at every
     *                         (re)connect, so that a failover needs no restart
     * @param groupSuffix      appended to the queue name to name its consumer group
     * @param payloadLimit     the largest payload accepted from producers and from the stream
     * @param commandTimeout   how long one command may take (blocking reads get their block time on top)
     * @param groupStartsAtEnd true to create new consumer groups at the end of an existing stream ({@code $})
     *                         instead of its start ({@code 0})
     * @param clusterNodes     {@code host:port} of Redis Cluster nodes ({@code BATON_REDIS_CLUSTER_NODES}); when
     *                         given, the adapter is a cluster client seeded by these nodes and the URI's own host,
     *                         and takes the password and TLS from the URI. Empty: a standalone Redis
     * @param requireServerAtOpen true (the default) to fail {@link #open} when Redis does not answer; false to open
     *                         anyway and connect in the background, every call failing at once until then
     * @param namespace        the prefix of every key ({@code BATON_NAMESPACE}, default {@code baton}): services
     *                         sharing a Redis under different namespaces never see each other's queues; 1..64
     *                         letters, digits, '.', '_' or '-' (docs/REDIS.md#keys)
     */
    public record Config(String uri, String groupSuffix, PayloadLimit payloadLimit, Duration commandTimeout,
                         boolean groupStartsAtEnd, List<String> clusterNodes, boolean requireServerAtOpen,
                         String namespace) {
        /** The namespace of every release before namespaces: their keys keep working unchanged. */
        public static final String DEFAULT_NAMESPACE = "baton";

        private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)([^@/?#]*)@");
        private static final Pattern HOST_PORT = Pattern.compile("([^\\s:/@]+|\\[[0-9A-Fa-f:.]+]):(\\d{1,5})");

        public Config {
            if (uri == null || uri.isBlank()) {
                throw new InvalidValueException("BATON_REDIS_URI is required, e.g. redis://localhost:6379");
            }
            String problem = RedisUris.problem(uri);
            if (problem != null) {
                throw new InvalidValueException("BATON_REDIS_URI '" + masked(uri) + "' is not usable: "
                        + masked(problem));
            }
            if (groupSuffix == null || groupSuffix.isEmpty() || groupSuffix.length() > 100
                    || !groupSuffix.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
                throw new InvalidValueException("group suffix must be 1..100 visible ASCII characters, got '"
                        + groupSuffix + "'");
            }
            if (payloadLimit == null) {
                throw new InvalidValueException("payload limit is required");
            }
            if (commandTimeout == null || commandTimeout.isNegative() || commandTimeout.isZero()) {
                throw new InvalidValueException("Redis command timeout must be positive, got " + commandTimeout);
            }
            clusterNodes = List.copyOf(Objects.requireNonNull(clusterNodes, "cluster nodes"));
            for (String node : clusterNodes) {
                Matcher matcher = HOST_PORT.matcher(node);
                if (!matcher.matches() || Integer.parseInt(matcher.group(2)) > 65535) {
                    throw new InvalidValueException("BATON_REDIS_CLUSTER_NODES entry '" + node
                            + "' is not host:port");
                }
            }
            if (!clusterNodes.isEmpty() && RedisUris.isSentinel(uri)) {
                throw new InvalidValueException("BATON_REDIS_CLUSTER_NODES names a Redis Cluster, but BATON_REDIS_URI "
                        + "names Sentinels: a Cluster fails over by itself, give one or the other");
            }
            if (!clusterNodes.isEmpty() && RedisURI.create(uri).getDatabase() != 0) {
                throw new InvalidValueException("a Redis Cluster has only database 0, but BATON_REDIS_URI '"
                        + masked(uri) + "' names another");
            }
            requireNamespace(namespace);
        }

        /** Redis must answer at open; the default namespace. */
        public Config(String uri, String groupSuffix, PayloadLimit payloadLimit, Duration commandTimeout,
                      boolean groupStartsAtEnd, List<String> clusterNodes) {
            this(uri, groupSuffix, payloadLimit, commandTimeout, groupStartsAtEnd, clusterNodes, true,
                    DEFAULT_NAMESPACE);
        }

        /** A standalone Redis (no cluster nodes) that must answer at open; the default namespace. */
        public Config(String uri, String groupSuffix, PayloadLimit payloadLimit, Duration commandTimeout,
                      boolean groupStartsAtEnd) {
            this(uri, groupSuffix, payloadLimit, commandTimeout, groupStartsAtEnd, List.of());
        }

        /**
         * The same configuration as a Redis Cluster client.
         *
         * @param nodes {@code host:port,host:port,...} as in {@code BATON_REDIS_CLUSTER_NODES}; blank for a
         *              standalone Redis
         */
        public Config withClusterNodes(String nodes) {
            List<String> list = nodes == null || nodes.isBlank() ? List.of()
                    : Arrays.stream(nodes.split(",")).map(String::trim).filter(node -> !node.isEmpty()).toList();
            return new Config(uri, groupSuffix, payloadLimit, commandTimeout, groupStartsAtEnd, list,
                    requireServerAtOpen, namespace);
        }

        /**
         * The same configuration, opening even when Redis does not answer ({@code false}): the adapter connects in the
         * background, and every call fails at once until Redis answers.
         */
        public Config withRequireServerAtOpen(boolean required) {
            return new Config(uri, groupSuffix, payloadLimit, commandTimeout, groupStartsAtEnd, clusterNodes, required,
                    namespace);
        }

        /**
         * {@code namespace} when it can prefix Redis keys.
         *
         * @throws InvalidValueException saying why it cannot
         */
        public static String requireNamespace(String namespace) {
            return new Namespace(namespace).value();
        }

        /** The same configuration with every key under {@code namespace} ({@code BATON_NAMESPACE}). */
        public Config withNamespace(String namespace) {
            return new Config(uri, groupSuffix, payloadLimit, commandTimeout, groupStartsAtEnd, clusterNodes,
                    requireServerAtOpen, namespace);
        }

        boolean cluster() {
            return !clusterNodes.isEmpty();
        }

        Namespace keyNamespace() {
            return new Namespace(namespace);
        }

        /**
         * Defaults: keys under {@code baton:}, groups {@code <queue>-workers} from the stream's start, 1 MiB payloads,
         * 10 s commands.
         */
        public static Config of(String uri) {
            return new Config(uri, "-workers", PayloadLimit.DEFAULT, Duration.ofSeconds(10), false);
        }

        /** Never shows the password. */
        @Override
        public String toString() {
            return "Config[uri=" + masked(uri) + ", groupSuffix=" + groupSuffix + ", payloadLimit="
                    + payloadLimit.maxBytes() + ", commandTimeout=" + commandTimeout + ", groupStartsAtEnd="
                    + groupStartsAtEnd + ", clusterNodes=" + clusterNodes + ", requireServerAtOpen="
                    + requireServerAtOpen + ", namespace=" + namespace + "]";
        }

        /** Any URI in {@code text} with its password as {@code ****} (Lettuce reads user-info without ':' as one). */
        static String masked(String text) {
            return USER_INFO.matcher(text).replaceAll(match -> {
                String userInfo = match.group(2);
                int colon = userInfo.indexOf(':');
                String shown = colon < 0 ? "****" : userInfo.substring(0, colon) + ":****";
                return Matcher.quoteReplacement(match.group(1) + shown + "@");
            });
        }
    }

    private final ClientResources resources;
    private final Connector client;
    private final FirstConnection connection;
    private final RedisStreamTransport transport;
    private final Duration pingTimeout;
    private final String server;

    private RedisAdapter(ClientResources resources, Connector client, FirstConnection connection,
                         Duration pingTimeout, String server) {
        this.resources = resources;
        this.client = client;
        this.connection = connection;
        this.transport = new RedisStreamTransport(connection::parts);
        this.pingTimeout = pingTimeout;
        this.server = server;
    }

    /**
     * Connects to Redis (a cluster client when the configuration names cluster nodes) and loads the adapter's scripts.
     * When Redis does not answer and {@link Config#requireServerAtOpen()} is false, it returns anyway (after the first
     * attempt, or the command timeout if that attempt takes longer) and connects in the background
     * (docs/REDIS.md#when-redis-is-down-at-start): every call fails at once with a {@link TransportException} until
     * Redis answered, and {@link #whyUnreachable()} tells why.
     *
     * @throws TransportException when Redis cannot be reached and {@link Config#requireServerAtOpen()}
     */
    public static RedisAdapter open(Config config, Clock clock) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        RedisURI uri = RedisURI.create(config.uri());
        uri.setTimeout(config.commandTimeout());
        // reconnect quickly after a Redis restart: the default backoff grows to 30 s
        ClientResources resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(2), 2,
                        TimeUnit.MILLISECONDS))
                .build();
        Connector client = config.cluster()
                ? Connector.cluster(resources, seeds(uri, config.clusterNodes()))
                : Connector.standalone(resources, uri);
        WireMapping wire = new WireMapping(config.payloadLimit());
        Supplier<TransportParts> connect = () -> TransportParts.connect(client, wire, config,
                clock);
        Duration pingTimeout = config.commandTimeout().compareTo(MAX_PING_TIMEOUT) < 0
                ? config.commandTimeout() : MAX_PING_TIMEOUT;
        String server = "Redis at " + Config.masked(config.uri());
        try {
            FirstConnection connection = config.requireServerAtOpen()
                    ? FirstConnection.now(server, connect, clock)
                    // a Redis that answers is connected when open returns, one that refuses is known down at once
                    : FirstConnection.inBackground(server, connect, clock, config.commandTimeout());
            return new RedisAdapter(resources, client, connection, pingTimeout, server);
        } catch (TransportException e) {
            client.shutdown();
            resources.shutdown();
            throw e;
        }
    }

    /** The URI's own host, then the cluster nodes, each with the URI's password, TLS and timeout. */
    private static List<RedisURI> seeds(RedisURI uri, List<String> nodes) {
        Stream<RedisURI> others = nodes.stream().map(node -> {
            int colon = node.lastIndexOf(':');
            String host = node.substring(0, colon).replace("[", "").replace("]", "");
            return RedisURI.builder(uri).withHost(host).withPort(Integer.parseInt(node.substring(colon + 1))).build();
        });
        return Stream.concat(Stream.of(uri), others).toList();
    }

    public JobPublisher publisher() {
        return transport;
    }

    public JobLeases leases() {
        return transport;
    }

    public QueueMaintenance maintenance() {
        return transport;
    }

    public QueueAdministration administration() {
        return transport;
    }

    public DelayedJobActions delayedJobs() {
        return transport;
    }

    public QueueOverview overview() {
        return transport;
    }

    /** The schedules' watermarks and atomic fires, beside the queues their jobs go to. */
    public ScheduleFires scheduleFires() {
        return transport;
    }

    /** When Redis may have lost jobs: the outbox relay publishes the outstanding ones again then. */
    public TransportMemory memory() {
        return transport;
    }

    /**
     * Declares that {@code queue} has {@code partitions} partitions (1..1024) and creates their consumer groups.
     * The first declaration records the count in Redis; a later one with another count fails, and so does every
     * later use of the queue by this adapter when the recorded count changes: producers and workers never route to
     * partitions that do not exist. An existing unpartitioned queue keeps 1 until {@link #repartition}.
     *
     * @throws InvalidValueException when the queue already has another partition count
     * @throws TransportException    when Redis cannot be reached
     */
    public void declarePartitions(QueueName queue, int partitions) {
        transport.declarePartitions(Objects.requireNonNull(queue, "queue"), partitions);
    }

    /** The partition count recorded for {@code queue} in Redis (1 when none is recorded). */
    public int partitions(QueueName queue) {
        return transport.partitions(Objects.requireNonNull(queue, "queue"));
    }

    /**
     * Changes the partition count of a drained queue (nothing undelivered, pending, delayed or dead), deleting the
     * old partitions' acknowledged history. Stop the queue's producers and workers first; see docs/SCALING.md.
     *
     * @throws InvalidValueException when the queue still holds work
     */
    public void repartition(QueueName queue, int partitions) {
        transport.repartition(Objects.requireNonNull(queue, "queue"), partitions);
    }

    /**
     * Deletes everything of {@code queue}: its stream, consumer group, delayed jobs, dead letters and the records of
     * its dead jobs and isolated suspects (of every partition, and its partition count), pending work included. For
     * throwaway queues (benchmarks, tests), never for a queue that workers still consume.
     */
    public void deleteQueue(QueueName queue) {
        transport.delete(Objects.requireNonNull(queue, "queue"));
    }

    /** True when Redis answers a PING within a short timeout (at most 2 s). */
    public boolean isReachable() {
        return whyUnreachable().isEmpty();
    }

    /**
     * Why Redis does not answer now, for a health check: never connected yet (since when, and the last attempt's
     * error), or no answer to a PING within a short timeout (at most 2 s). Empty when it answers. Never shows a
     * password.
     */
    public Optional<String> whyUnreachable() {
        Optional<String> notConnected = connection.whyNotConnected();
        if (notConnected.isPresent()) {
            return notConnected;
        }
        try {
            return connection.parts().answersPing(pingTimeout) ? Optional.empty()
                    : Optional.of(server + " did not answer a PING within " + pingTimeout.toMillis() + " ms");
        } catch (TransportException closed) {
            return Optional.of(closed.getMessage());
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
        resources.shutdown();
    }
}
