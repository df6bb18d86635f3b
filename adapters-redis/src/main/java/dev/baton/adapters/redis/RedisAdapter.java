package dev.baton.adapters.redis;

import dev.baton.application.port.out.StreamTransport;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.PayloadLimit;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Redis adapter's entry point: connects to Redis and provides the {@link StreamTransport} on Redis Streams.
 * Thread-safe; one instance per process is enough. The wire protocol is described in docs/REDIS.md.
 */
public final class RedisAdapter implements AutoCloseable {
    private static final Duration MAX_PING_TIMEOUT = Duration.ofSeconds(2);

    /**
     * @param uri              {@code redis://[:password@]host[:port][/db]} or {@code rediss://...} for TLS
     * @param groupSuffix      appended to the queue name to name its consumer group
     * @param payloadLimit     the largest payload accepted from producers and from the stream
     * @param commandTimeout   how long one command may take (blocking reads get their block time on top)
     * @param groupStartsAtEnd true to create new consumer groups at the end of an existing stream ({@code $})
     *                         instead of its start ({@code 0})
     */
    public record Config(String uri, String groupSuffix, PayloadLimit payloadLimit, Duration commandTimeout,
                         boolean groupStartsAtEnd) {
        private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)([^@/?#]*)@");

        public Config {
            if (uri == null || uri.isBlank()) {
                throw new InvalidValueException("BATON_REDIS_URI is required, e.g. redis://localhost:6379");
            }
            if (!uri.startsWith("redis://") && !uri.startsWith("rediss://")) {
                throw new InvalidValueException("BATON_REDIS_URI '" + masked(uri)
                        + "' must start with redis:// (or rediss:// for TLS)");
            }
            try {
                if (URI.create(uri).getHost() == null) {
                    throw new IllegalArgumentException("it names no host (or a bad port)");
                }
                RedisURI.create(uri);
            } catch (RuntimeException e) {
                throw new InvalidValueException("BATON_REDIS_URI '" + masked(uri) + "' is not a valid Redis URI: "
                        + masked(String.valueOf(e.getMessage())));
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
        }

        /** Defaults: groups {@code <queue>-workers} from the stream's start, 1 MiB payloads, 10 s commands. */
        public static Config of(String uri) {
            return new Config(uri, "-workers", PayloadLimit.DEFAULT, Duration.ofSeconds(10), false);
        }

        /** Never shows the password. */
        @Override
        public String toString() {
            return "Config[uri=" + masked(uri) + ", groupSuffix=" + groupSuffix + ", payloadLimit="
                    + payloadLimit.maxBytes() + ", commandTimeout=" + commandTimeout + ", groupStartsAtEnd="
                    + groupStartsAtEnd + "]";
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
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final StatefulRedisConnection<byte[], byte[]> pipeline;
    private final BlockingReads blockingReads;
    private final RedisStreamTransport transport;
    private final Duration pingTimeout;

    private RedisAdapter(ClientResources resources, RedisClient client,
                         StatefulRedisConnection<byte[], byte[]> connection,
                         StatefulRedisConnection<byte[], byte[]> pipeline, BlockingReads blockingReads,
                         RedisStreamTransport transport, Duration pingTimeout) {
        this.resources = resources;
        this.client = client;
        this.connection = connection;
        this.pipeline = pipeline;
        this.blockingReads = blockingReads;
        this.transport = transport;
        this.pingTimeout = pingTimeout;
    }

    /**
     * Connects to Redis and loads the adapter's scripts.
     *
     * @throws TransportException when Redis cannot be reached
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
        RedisClient client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .protocolVersion(ProtocolVersion.RESP2)
                .autoReconnect(true)
                // the connection's own timeout applies, so blocking reads can be given a longer one
                .timeoutOptions(TimeoutOptions.enabled())
                .build());
        try {
            StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
            // batches go out in one write: this connection flushes only when told to
            StatefulRedisConnection<byte[], byte[]> pipeline = client.connect(ByteArrayCodec.INSTANCE);
            pipeline.setAutoFlushCommands(false);
            LuaScripts scripts = LuaScripts.load(connection.sync());
            BlockingReads blockingReads = new BlockingReads(client);
            RedisStreamTransport transport = new RedisStreamTransport(connection, pipeline, blockingReads, scripts,
                    new WireMapping(config.payloadLimit()), config, clock);
            Duration pingTimeout = config.commandTimeout().compareTo(MAX_PING_TIMEOUT) < 0
                    ? config.commandTimeout() : MAX_PING_TIMEOUT;
            return new RedisAdapter(resources, client, connection, pipeline, blockingReads, transport, pingTimeout);
        } catch (RedisException e) {
            client.shutdown();
            resources.shutdown();
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String reason = root == e ? e.getMessage() : e.getMessage() + " (" + root.getMessage() + ")";
            throw new TransportException("cannot connect to Redis at " + Config.masked(config.uri()) + ": "
                    + Config.masked(String.valueOf(reason)), e);
        }
    }

    public StreamTransport transport() {
        return transport;
    }

    /** True when Redis answers a PING within a short timeout (at most 2 s). */
    public boolean isReachable() {
        try {
            return "PONG".equals(connection.async().ping().get(pingTimeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RedisException e) {
            return false;
        }
    }

    @Override
    public void close() {
        blockingReads.close();
        pipeline.close();
        connection.close();
        client.shutdown();
        resources.shutdown();
    }
}
