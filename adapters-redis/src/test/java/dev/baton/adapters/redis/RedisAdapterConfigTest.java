package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.domain.InvalidValueException;
import dev.baton.domain.PayloadLimit;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RedisAdapterConfigTest {

    @Test
    void ofGivesTheDefaults() {
        RedisAdapter.Config config = RedisAdapter.Config.of("redis://localhost:6379");

        assertThat(config.groupSuffix()).isEqualTo("-workers");
        assertThat(config.payloadLimit()).isEqualTo(PayloadLimit.DEFAULT);
        assertThat(config.commandTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.groupStartsAtEnd()).isFalse();
    }

    @Test
    void acceptsPlainTlsAndPasswordUris() {
        assertThat(RedisAdapter.Config.of("rediss://cache.example.com:6380").uri()).startsWith("rediss://");
        assertThat(RedisAdapter.Config.of("redis://:secret@localhost:6379/2").uri()).contains("secret");
        assertThat(RedisAdapter.Config.of("redis://user:secret@localhost").uri()).contains("user");
    }

    @Test
    void aBadUriNamesTheSettingAndMasksThePassword() {
        assertThatThrownBy(() -> RedisAdapter.Config.of(" "))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("BATON_REDIS_URI");
        assertThatThrownBy(() -> RedisAdapter.Config.of("http://:topsecret@localhost:6379"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_REDIS_URI")
                .hasMessageContaining("http://:****@localhost:6379")
                .hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis://admin:topsecret@:notaport"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_REDIS_URI")
                .hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis://admin:top secret@host:6379"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_REDIS_URI")
                .hasMessageNotContaining("top secret")
                .hasMessageNotContaining("secret");
    }

    @Test
    void acceptsLettucesSentinelUris() {
        assertThat(RedisAdapter.Config.of("redis-sentinel://10.0.0.1:26379,10.0.0.2:26379,sentinel-3:26380#jobs").uri())
                .startsWith("redis-sentinel://");
        assertThat(RedisAdapter.Config.of("rediss-sentinel://:secret@sentinel.example.com:26379/2#jobs").uri())
                .contains("secret");
        assertThat(RedisAdapter.Config.of("redis-sentinel://s1,s2:26379?sentinelMasterId=jobs").uri()).contains("s1");
    }

    @Test
    void aMalformedSentinelUriSaysWhatIsMissingAndMasksThePassword() {
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis-sentinel://:topsecret@s1:26379,s2:26379"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_REDIS_URI")
                .hasMessageContaining("names no master: add #masterName")
                .hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis-sentinel://:topsecret@#jobs"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("names no Sentinel")
                .hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis-sentinel://:topsecret@s1:26379,,s2#jobs"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("Sentinel '' is not host[:port]")
                .hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis-sentinel://user:topsecret@s1:99999#jobs"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("Sentinel 's1:99999' is not host[:port]")
                .hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis-sentinel://s1:26379,[::1]:26379#jobs"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("Sentinel '[::1]:26379' is not host[:port]");
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis-sentinel://user:topsecret@s1:port#jobs"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("Sentinel 's1:port' is not host[:port]")
                .hasMessageNotContaining("topsecret");
    }

    @Test
    void sentinelsAndClusterNodesExcludeEachOther() {
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis-sentinel://s1:26379#jobs").withClusterNodes("n1:7000"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_REDIS_CLUSTER_NODES")
                .hasMessageContaining("Sentinels");
    }

    @Test
    void masksEveryFormOfPassword() {
        assertThat(RedisAdapter.Config.masked("redis://:pw@host:1")).isEqualTo("redis://:****@host:1");
        assertThat(RedisAdapter.Config.masked("redis://pw@host:1")).isEqualTo("redis://****@host:1");
        assertThat(RedisAdapter.Config.masked("rediss://user:pw@host:1/0")).isEqualTo("rediss://user:****@host:1/0");
        assertThat(RedisAdapter.Config.masked("redis://host:1")).isEqualTo("redis://host:1");
        assertThat(RedisAdapter.Config.masked("rediss-sentinel://:pw@s1:1,s2:2#m"))
                .isEqualTo("rediss-sentinel://:****@s1:1,s2:2#m");
        assertThat(RedisAdapter.Config.masked("bad at index 3: redis://u:p w@h")).isEqualTo(
                "bad at index 3: redis://u:****@h");
        assertThat(RedisAdapter.Config.of("redis://user:pw@host:1").toString()).contains("user:****@host")
                .doesNotContain("pw@");
    }

    @Test
    void rejectsOtherBadSettings() {
        String uri = "redis://localhost";
        assertThatThrownBy(() -> new RedisAdapter.Config(uri, "", PayloadLimit.DEFAULT, Duration.ofSeconds(1), false))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("group suffix");
        assertThatThrownBy(() -> new RedisAdapter.Config(uri, "-w", null, Duration.ofSeconds(1), false))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("payload limit");
        assertThatThrownBy(() -> new RedisAdapter.Config(uri, "-w", PayloadLimit.DEFAULT, Duration.ZERO, false))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("timeout");
    }
}
