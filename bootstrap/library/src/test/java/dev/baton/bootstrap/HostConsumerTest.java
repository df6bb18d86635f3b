package dev.baton.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.domain.ConsumerName;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The default consumer name: the same after every restart, so a restarted worker resumes its own pending entries. */
class HostConsumerTest {

    @Test
    void inKubernetesItIsThePodsName() {
        assertThat(HostConsumer.of(Map.of("HOSTNAME", "shipper-5d9c7b-x2k4q"), () -> "node-3"))
                .isEqualTo(ConsumerName.of("shipper-5d9c7b-x2k4q"));
    }

    @Test
    void elsewhereItIsTheHostNameWithoutTheProcessId() {
        assertThat(HostConsumer.of(Map.of(), () -> "build box.local")).isEqualTo(ConsumerName.of("build_box.local"));
        assertThat(HostConsumer.of(Map.of("HOSTNAME", " "), () -> "node-3")).isEqualTo(ConsumerName.of("node-3"));
        assertThat(HostConsumer.name()).isEqualTo(HostConsumer.name());
    }

    @Test
    void aLongHostNameLeavesRoomForTheNumberOfASecondWorker() {
        ConsumerName name = HostConsumer.of(Map.of("HOSTNAME", "h".repeat(250)), () -> "unused");

        assertThat(name.value()).hasSize(190);
        assertThat(name.numbered(999).value()).hasSize(194);
    }
}
