package dev.baton.bootstrap.faults;

import dev.baton.adapters.redis.testing.TestCluster;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Redis a run uses: one server, or a Redis Cluster.
 *
 * @param uri          {@code BATON_REDIS_URI} (on a cluster: one node, a seed)
 * @param clusterNodes {@code BATON_REDIS_CLUSTER_NODES}, {@code host:port,…}; empty for a single server
 */
record RedisTarget(String uri, String clusterNodes) {

    static RedisTarget server(String uri) {
        return new RedisTarget(uri, "");
    }

    static RedisTarget cluster(TestCluster cluster) {
        return new RedisTarget(cluster.uri(), cluster.clusterNodes());
    }

    boolean isCluster() {
        return !clusterNodes.isEmpty();
    }

    /** The variables that point {@code baton} at it. */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BATON_REDIS_URI", uri);
        if (isCluster()) {
            env.put("BATON_REDIS_CLUSTER_NODES", clusterNodes);
        }
        return env;
    }
}
