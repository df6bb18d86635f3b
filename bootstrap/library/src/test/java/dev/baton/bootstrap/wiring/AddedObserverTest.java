package dev.baton.bootstrap.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class AddedObserverTest {
    private static final Duration DONE = Duration.ofSeconds(10);

    @Nested
    class WithAnAddedObserver {
        @Test
        void itHearsTheWorkerAndTheProducerAndTheMetricsStillCount() {
            BatonConfig config = ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "off"), Optional.empty(), Map.of());
            List<String> heard = new CopyOnWriteArrayList<>();
            JobObserver listening = new JobObserver() {
                @Override
                public void jobEnqueued(Job job) {
                    heard.add("enqueued " + job.id().value());
                }

                @Override
                public void jobCompleted(Job job, Duration processing) {
                    heard.add("completed " + job.id().value());
                }
            };

            try (Baton baton = Baton.builder().config(config).adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                    .handler("mail", context -> Optional.empty()).observer(listening).build()) {
                baton.enqueue(QueueName.of("mail"), JobId.of("welcome-1"), "{}");
                baton.start("mail");

                await().atMost(DONE).until(() -> heard.contains("completed welcome-1"));
                assertThat(heard).containsExactly("enqueued welcome-1", "completed welcome-1");
                assertThat(baton.use(MeterRegistry.class).get("baton.jobs.completed").counter().count())
                        .isEqualTo(1.0);
            }
        }

        @Test
        void ifItAlsoWatchesTheLoopsItHearsAReclaimWithoutBeingAddedTwice() {
            BatonConfig config = ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "off", "BATON_LEASE", "1s"),
                    Optional.empty(), Map.of());
            List<String> heard = new CopyOnWriteArrayList<>();
            final class Listening implements JobObserver, MaintenanceObserver {
                @Override
                public void jobCompleted(Job job, Duration processing) {
                    heard.add("completed " + job.id().value());
                }

                @Override
                public void reclaimed(QueueName queue, int count) {
                    heard.add("reclaimed " + count + " from " + queue.value());
                }
            }

            try (Baton baton = Baton.builder().config(config).adapters(new InMemoryAdapters(Clock.systemUTC()).ports())
                    .handler("mail", context -> Optional.empty()).observer(new Listening()).build()) {
                baton.enqueue(QueueName.of("mail"), JobId.of("welcome-1"), "{}");
                // a consumer that leases the job and goes silent: the worker takes it over after a lease
                baton.use(JobLeases.class).lease(QueueName.of("mail"), ConsumerName.of("gone"), 1, Duration.ZERO)
                        .deliveries();
                baton.start("mail");

                await().atMost(DONE).until(() -> heard.contains("completed welcome-1"));
                assertThat(heard).containsExactly("reclaimed 1 from mail", "completed welcome-1");
                assertThat(baton.use(MeterRegistry.class).get("baton.jobs.reclaimed").counter().count())
                        .isEqualTo(1.0);
            }
        }
    }

}
