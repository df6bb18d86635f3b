package dev.baton.bootstrap.config;

import static dev.baton.bootstrap.config.Setting.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.bootstrap.Baton;
import dev.baton.domain.ConsumerName;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** BATON_NAMESPACE and BATON_CONSUMER from the environment, flags and the builder, each checked by one rule. */
class NamespaceAndConsumerSettingsTest {

    @Test
    void theDefaultsAreTheBatonNamespaceAndTheHostsName() {
        BatonConfig config = BatonConfig.defaults();

        assertThat(config.get(NAMESPACE)).isEqualTo("baton");
        assertThat(config.consumer()).isEmpty();
        assertThat(config.describe()).containsEntry("namespace", "baton").containsEntry("consumer", "");
    }

    @Test
    void readsBothFromTheEnvironmentAndFlagsOverrideIt() {
        BatonConfig fromEnv = load(Map.of("BATON_NAMESPACE", "shop", "BATON_CONSUMER", "shipper-1"), Map.of());
        BatonConfig fromFlags = load(Map.of("BATON_NAMESPACE", "shop", "BATON_CONSUMER", "shipper-1"),
                Map.of("namespace", "billing", "consumer", "biller"));

        assertThat(fromEnv.get(NAMESPACE)).isEqualTo("shop");
        assertThat(fromEnv.consumer()).contains(ConsumerName.of("shipper-1"));
        assertThat(fromFlags.get(NAMESPACE)).isEqualTo("billing");
        assertThat(fromFlags.consumer()).contains(ConsumerName.of("biller"));
    }

    @Test
    void aNamespaceThatCannotPrefixRedisKeysIsRejectedSayingWhy() {
        assertThatThrownBy(() -> load(Map.of("BATON_NAMESPACE", "shop:eu"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid BATON_NAMESPACE (--namespace) = 'shop:eu' from the environment: ")
                .hasMessageContaining("a colon would make one namespace a prefix of another");
        assertThatThrownBy(() -> load(Map.of(), Map.of("namespace", "{shop}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("a brace would become the Redis Cluster hash tag of every key");
        assertThatThrownBy(() -> Baton.builder().set(NAMESPACE, "shop eu").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Baton.builder().set(NAMESPACE, 'shop eu'): namespace 'shop eu' is not usable");
    }

    @Test
    void aConsumerNameWithSpacesIsRejectedNamingTheSetting() {
        assertThatThrownBy(() -> load(Map.of("BATON_CONSUMER", "web 7"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid BATON_CONSUMER (--consumer) = 'web 7' from the environment: ")
                .hasMessageContaining("no spaces");
    }

    private static BatonConfig load(Map<String, String> env, Map<String, String> flags) {
        return ConfigLoader.load(env, Optional.empty(), flags);
    }
}
