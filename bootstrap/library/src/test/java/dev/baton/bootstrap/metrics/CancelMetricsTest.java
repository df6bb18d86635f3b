package dev.baton.bootstrap.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The meter of cancels: every cancelled delivery or attempt a worker ended counts once for its queue. */
class CancelMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void everyCancelledJobCountsOnceForItsQueue() {
        MicrometerWorkerObserver observer = new MicrometerWorkerObserver(registry);

        observer.jobCancelled(Job.create(JobId.of("a"), QueueName.of("orders"), "{}", Instant.EPOCH));
        observer.jobCancelled(Job.create(JobId.of("b"), QueueName.of("orders"), "{}", Instant.EPOCH));
        observer.jobCancelled(Job.create(JobId.of("c"), QueueName.of("mail"), "{}", Instant.EPOCH));

        assertThat(registry.get("baton.jobs.cancelled").tag("queue", "orders").counter().count()).isEqualTo(2);
        assertThat(registry.get("baton.jobs.cancelled").tag("queue", "mail").counter().count()).isEqualTo(1);
    }
}
