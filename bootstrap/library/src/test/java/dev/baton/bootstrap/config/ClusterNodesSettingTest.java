package dev.baton.bootstrap.config;

import static dev.baton.bootstrap.config.Setting.REDIS_CLUSTER_NODES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterNodesSettingTest {

    @Test
    void emptyByDefaultMeaningASingleRedis() {
        BatonConfig config = BatonConfig.defaults();

        assertThat(config.get(REDIS_CLUSTER_NODES)).isEmpty();
        assertThat(config.describe()).containsEntry("redis-cluster-nodes", "");
    }

    @Test
    void readsCommaSeparatedHostPortsFromTheEnvironmentOrAFlag() {
        BatonConfig fromEnv = ConfigLoader.load(
                Map.of("BATON_REDIS_CLUSTER_NODES", " redis-a:7000, 10.0.0.2:7001 ,,[::1]:7002 "), Optional.empty(),
                Map.of());
        BatonConfig fromFlag = ConfigLoader.load(Map.of("BATON_REDIS_CLUSTER_NODES", "ignored:1"), Optional.empty(),
                Map.of("redis-cluster-nodes", "redis-b:7003"));

        assertThat(fromEnv.get(REDIS_CLUSTER_NODES)).containsExactly("redis-a:7000", "10.0.0.2:7001", "[::1]:7002");
        assertThat(fromEnv.describe()).containsEntry("redis-cluster-nodes", "redis-a:7000,10.0.0.2:7001,[::1]:7002");
        assertThat(fromFlag.get(REDIS_CLUSTER_NODES)).containsExactly("redis-b:7003");
        assertThat(ConfigLoader.load(Map.of("BATON_REDIS_CLUSTER_NODES", "  "), Optional.empty(), Map.of())
                .get(REDIS_CLUSTER_NODES)).isEmpty();
    }

    @Test
    void aNodeWithoutAPortIsRejectedNamingTheSettingAndTheNode() {
        assertThatThrownBy(() -> load("redis-a:7000,redis-b"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("BATON_REDIS_CLUSTER_NODES")
                .hasMessageContaining("--redis-cluster-nodes")
                .hasMessageContaining("expected comma-separated host:port, got 'redis-b'");
    }

    @Test
    void badPortsAndHostsAreRejected() {
        assertThatThrownBy(() -> load("redis-a:70000")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("BATON_REDIS_CLUSTER_NODES").hasMessageContaining("port of 'redis-a:70000'");
        assertThatThrownBy(() -> load("redis-a:x")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("port of 'redis-a:x'");
        assertThatThrownBy(() -> load(":7000")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("got ':7000'");
        assertThatThrownBy(() -> load("::1:7000")).as("IPv6 needs brackets").isInstanceOf(ConfigException.class)
                .hasMessageContaining("got '::1:7000'");
        assertThatThrownBy(() -> load("redis://a:7000")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("got 'redis://a:7000'");
    }

    private static BatonConfig load(String nodes) {
        return ConfigLoader.load(Map.of("BATON_REDIS_CLUSTER_NODES", nodes), Optional.empty(), Map.of());
    }
}
