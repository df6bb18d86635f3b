package dev.baton.bootstrap.admin;

import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A host's Baton on the in-memory adapters, its admin server started and one job done. Made by reflection in a
 * {@code HostClasspath} loader, so it answers in JDK types only: the admin port, the meter registry's class and the
 * completed jobs it counted.
 */
public final class AdminOfAHost implements Supplier<Map<String, Object>>, AutoCloseable {
    private final Baton baton;
    private final int port;

    public AdminOfAHost() {
        baton = Baton.builder()
                .config(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "127.0.0.1:0", "BATON_QUEUES", "mail"),
                        Optional.empty(), Map.of()))
                .adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                .handler("mail", context -> Optional.empty())
                .shutdownHook(false)
                .build();
        port = baton.startAdmin().orElseThrow().getPort();
        RunningWorker worker = baton.start("mail");
        baton.enqueue(QueueName.of("mail"), JobId.of("welcome-1"), "{}");
        await().atMost(Duration.ofSeconds(20)).until(() -> worker.counters().completed() == 1);
    }

    @Override
    public Map<String, Object> get() {
        MeterRegistry registry = baton.use(MeterRegistry.class);
        return Map.of("port", port, "registry", registry.getClass().getName(),
                "completed", registry.get("baton.jobs.completed").counter().count());
    }

    @Override
    public void close() {
        baton.close();
    }
}
