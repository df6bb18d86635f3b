package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.domain.InvalidValueException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cluster part of the adapter's configuration (BATON_REDIS_CLUSTER_NODES). */
class ClusterConfigTest {

    @Test
    void clusterNodesAreReadFromACommaSeparatedList() {
        RedisAdapter.Config config = RedisAdapter.Config.of("redis://:secret@10.0.0.1:7000")
                .withClusterNodes(" 10.0.0.2:7000, redis-3.internal:7001 ,,[::1]:7002");

        assertThat(config.clusterNodes()).containsExactly("10.0.0.2:7000", "redis-3.internal:7001", "[::1]:7002");
        assertThat(config.cluster()).isTrue();
        assertThat(config.toString()).contains("clusterNodes=[10.0.0.2:7000, redis-3.internal:7001, [::1]:7002]")
                .doesNotContain("secret");
    }

    @Test
    void withoutNodesTheAdapterIsAStandaloneClient() {
        RedisAdapter.Config config = RedisAdapter.Config.of("redis://localhost:6379");

        assertThat(config.clusterNodes()).isEmpty();
        assertThat(config.cluster()).isFalse();
        assertThat(config.withClusterNodes("  ").cluster()).isFalse();
    }

    @Test
    void badNodesAndDatabasesOtherThanZeroAreRefused() {
        RedisAdapter.Config config = RedisAdapter.Config.of("redis://localhost:6379");

        assertThatThrownBy(() -> config.withClusterNodes("10.0.0.2"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("BATON_REDIS_CLUSTER_NODES entry '10.0.0.2' is not host:port");
        assertThatThrownBy(() -> config.withClusterNodes("10.0.0.2:70000"))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("'10.0.0.2:70000'");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis://:pw@localhost:6379/2").withClusterNodes("h:7000"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("a Redis Cluster has only database 0, but BATON_REDIS_URI 'redis://:****@localhost:6379/2'"
                        + " names another");
        assertThat(new RedisAdapter.Config("redis://h:1", "-w", config.payloadLimit(), config.commandTimeout(), true,
                List.of("h:2")).cluster()).isTrue();
    }
}
