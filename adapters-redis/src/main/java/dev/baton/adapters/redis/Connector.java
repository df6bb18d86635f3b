package dev.baton.adapters.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;

/**
 * Opens connections to a standalone Redis (named directly or by Sentinels) or to a Redis Cluster, and shuts the client
 * down. Behind Sentinels, Lettuce asks them for the master's address at every connect and reconnect: when a failover
 * promotes a replica, the old master drops its clients (Sentinel kills them as it demotes it, or it is gone) and every
 * connection reconnects to the new one, blocking reads included.
 */
sealed interface Connector {
    /** Periodic topology refresh; adaptive refresh (MOVED, ASK, reconnects) reacts to a failover at once. */
    Duration TOPOLOGY_REFRESH = Duration.ofSeconds(10);

    Link connect();

    void shutdown();

    /**
     * Fails unless the connection just made is ready for the transport: on a cluster, its masters must serve every
     * hash slot, as they do once the cluster is formed (before, a node answers but owns nothing, and every command
     * would fail). The topology is read again first when it was not: the one read at the first connect is kept.
     *
     * @throws RedisException naming how many slots are served
     */
    void requireReady();

    /** One server, or the master that the Sentinels of a {@code redis-sentinel://} URI name. */
    static Connector standalone(ClientResources resources, RedisURI uri) {
        RedisClient client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .protocolVersion(ProtocolVersion.RESP2)
                .autoReconnect(true)
                // the connection's own timeout applies, so blocking reads can be given a longer one
                .timeoutOptions(TimeoutOptions.enabled())
                .build());
        return new Standalone(client);
    }

    /** Both periodic and adaptive topology refresh are on (Lettuce leaves both off by default). */
    static Connector cluster(ClientResources resources, List<RedisURI> seeds) {
        RedisClusterClient client = RedisClusterClient.create(resources, seeds);
        client.setOptions(ClusterClientOptions.builder()
                .protocolVersion(ProtocolVersion.RESP2)
                .autoReconnect(true)
                .timeoutOptions(TimeoutOptions.enabled())
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(TOPOLOGY_REFRESH)
                        .enableAllAdaptiveRefreshTriggers()
                        .build())
                .build());
        return new Cluster(client);
    }

    record Standalone(RedisClient client) implements Connector {
        @Override
        public Link connect() {
            return Link.of(client.connect(ByteArrayCodec.INSTANCE));
        }

        @Override
        public void requireReady() {
            // a server that answered is ready
        }

        @Override
        public void shutdown() {
            client.shutdown();
        }
    }

    record Cluster(RedisClusterClient client) implements Connector {
        @Override
        public Link connect() {
            return Link.of(client.connect(ByteArrayCodec.INSTANCE));
        }

        @Override
        public void requireReady() {
            if (servedSlots() < SlotHash.SLOT_COUNT) {
                client.refreshPartitions();
            }
            int served = servedSlots();
            if (served < SlotHash.SLOT_COUNT) {
                throw new RedisException("the Redis Cluster is not ready: its nodes serve " + served + " of "
                        + SlotHash.SLOT_COUNT + " hash slots");
            }
        }

        private int servedSlots() {
            Partitions topology = client.getPartitions();
            int served = 0;
            for (int slot = 0; slot < SlotHash.SLOT_COUNT; slot++) {
                if (topology.getPartitionBySlot(slot) != null) {
                    served++;
                }
            }
            return served;
        }

        @Override
        public void shutdown() {
            client.shutdown();
        }
    }
}
