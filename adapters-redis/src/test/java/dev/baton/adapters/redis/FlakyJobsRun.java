package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.worker.WorkerService;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.application.service.worker.WorkerSettings.Leasing;
import dev.baton.application.service.worker.WorkerSettings.Polling;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.domain.Backoff;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Jitter;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.RetryPolicy;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The application's real worker loop (two workers, the in-memory ledger) over a Redis adapter: every fifth job fails
 * its first attempt and is retried through the delayed set. Checks that every job ran once, the flaky ones twice.
 */
final class FlakyJobsRun {
    private FlakyJobsRun() {
    }

    /** Publishes {@code jobs} jobs on {@code queue}, runs them with two workers and checks the outcome. */
    static void runAndCheck(RedisAdapter adapter, QueueName queue, int jobs) {
        InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(Clock.systemUTC());
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        JobHandler flaky = context -> {
            int attempt = attempts.computeIfAbsent(context.job().id().value(), id -> new AtomicInteger())
                    .incrementAndGet();
            if (attempt == 1 && context.job().payload().contains("flaky")) {
                throw new IOException("first attempt fails");
            }
            return Optional.empty();
        };
        WorkerSettings settings = WorkerSettings.DEFAULTS
                .with(Retries.DEFAULT.withRetryPolicy(new RetryPolicy(3, new Backoff.Fixed(Duration.ofMillis(50)),
                        Jitter.NONE, Set.of())))
                .with(Polling.DEFAULT.withBlock(Duration.ofMillis(200)).withPromoteInterval(Duration.ofMillis(50)))
                .with(Leasing.DEFAULT.withExtendInterval(Duration.ofSeconds(5))
                        .withRecoveryInterval(Duration.ofSeconds(1)));
        RunWorkerUseCase workers = new WorkerService(adapter.leases(), adapter.maintenance(), ledger, ledger,
                JobHandlers.of(Map.of(queue.value(), flaky)), settings, Clock.systemUTC(), () -> 0.5,
                JobObserver.NONE, MaintenanceObserver.NONE, JobTracing.NONE);
        adapter.publisher().publishAll(IntStream.range(0, jobs)
                .mapToObj(i -> Job.create(JobId.of("job-" + i), queue, i % 5 == 0 ? "{\"flaky\":true}" : "{}",
                        Instant.now()))
                .toList());

        try (RunningWorker first = workers.start(command(queue, "w1"));
             RunningWorker second = workers.start(command(queue, "w2"))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> ledger.countCompleted(queue) == jobs);
            await().atMost(Duration.ofSeconds(10)).until(() -> adapter.administration().stats(queue).pending() == 0);

            assertThat(first.counters().completed() + second.counters().completed()).isEqualTo(jobs);
            assertThat(first.counters().retried() + second.counters().retried()).isEqualTo(jobs / 5);
        }
        assertThat(attempts).hasSize(jobs);
        assertThat(attempts.entrySet()).allSatisfy(entry -> assertThat(entry.getValue().get())
                .isEqualTo(Integer.parseInt(entry.getKey().substring(4)) % 5 == 0 ? 2 : 1));
        QueueStats stats = adapter.administration().stats(queue);
        assertThat(stats.delayed()).isZero();
        assertThat(stats.dead()).isZero();
    }

    private static RunWorkerUseCase.Command command(QueueName queue, String consumer) {
        return new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of(consumer), 4, Optional.empty());
    }
}
