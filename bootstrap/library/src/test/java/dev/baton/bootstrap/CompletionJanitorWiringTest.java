package dev.baton.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The completion janitor's thread is what shows how many janitors a Baton instance runs. */
class CompletionJanitorWiringTest {

    @Test
    void workersOfOneInstanceShareOneJanitorThatStopsWithIt() {
        long before = janitorThreads();
        try (Baton baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "off"), Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .handler("mail", context -> Optional.empty())
                .handler("invoices", context -> Optional.empty())
                .build()) {
            baton.start("mail");
            baton.start("invoices");

            assertThat(janitorThreads()).isEqualTo(before + 1);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> janitorThreads() == before);
    }

    private static long janitorThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("baton-completion-janitor"))
                .count();
    }
}
