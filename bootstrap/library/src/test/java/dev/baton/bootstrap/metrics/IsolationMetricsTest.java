package dev.baton.bootstrap.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The meters of poison isolation: suspects run alone (a counter per queue) and the suspects Redis records (gauges). */
class IsolationMetricsTest {
    private static final QueueName QUEUE = QueueName.of("orders");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void everySuspectRunAloneCountsOneIsolatedDeliveryOfItsQueue() {
        MicrometerWorkerObserver observer = new MicrometerWorkerObserver(registry);
        Job job = Job.create(JobId.of("suspect"), QUEUE, "{}", Instant.EPOCH);

        observer.suspectIsolated(job, 1);
        observer.suspectIsolated(job, 2);

        assertThat(registry.get("baton.jobs.isolated").tag("queue", "orders").counter().count()).isEqualTo(2);
    }

    @Test
    void theQueueGaugesShowTheSuspectsAndTheirIsolatedDeliveries() {
        QueueStats stats = new QueueStats(QUEUE, 10, OptionalLong.of(0), 3, Duration.ZERO, List.of(), 0, 0, 2, 5,
                false);
        InspectQueueUseCase inspect = command -> new InspectQueueUseCase.QueueReport(stats, OptionalLong.empty(),
                Map.of());

        try (QueueGauges gauges = new QueueGauges(inspect, new KnownQueues(List.of(QUEUE)), registry,
                Duration.ofHours(1))) {
            gauges.refresh();

            assertThat(registry.get("baton.queue.suspects").tag("queue", "orders").gauge().value()).isEqualTo(2);
            assertThat(registry.get("baton.queue.isolated.deliveries").tag("queue", "orders").gauge().value())
                    .isEqualTo(5);
        }
    }
}
