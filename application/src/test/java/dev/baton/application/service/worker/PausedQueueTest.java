package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Pausing a queue, on the in-memory adapters: what a worker leases, runs and acknowledges while it is paused. */
class PausedQueueTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Long enough for a worker to read the pauses twice: a lease it started would have run by then. */
    private static final Duration TWO_CHECKS = PausedQueues.CHECK_INTERVAL.multipliedBy(2);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final EnqueueService enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT);
    private final QueueName paused = QueueName.of("reports");
    private final QueueName running = QueueName.of("mail");
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<RunningWorker> workers = new ArrayList<>();
    private final WorkerSettings settings = WorkerFixture.QUICK_LOOPS;
    private final JobHandler handler = context -> {
        if (context.job().id().value().startsWith("slow")) {
            release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        ran.add(context.job().id().value());
        return Optional.empty();
    };

    @AfterEach
    void stopWorkers() {
        workers.forEach(worker -> worker.stop(Duration.ZERO));
    }

    @Nested
    class WhileAQueueIsPaused {
        @Test
        void nothingRunsPassAfterPassWhileEnqueuesGoOnThenAllOnResume() {
            InlineWorker worker = service().inline(command("w1", paused, running));
            transport.pause(paused);
            enqueue(paused, "r-1", Optional.empty());
            enqueue(paused, "r-2", Optional.empty());
            enqueue(paused, "r-later", Optional.of(clock.instant().plusSeconds(2)));

            // five seconds of the test's clock, one pass a second: promotion goes on, leasing does not
            for (int second = 1; second <= 5; second++) {
                enqueue(running, "m-" + second, Optional.empty());
                clock.advance(Duration.ofSeconds(1));
                worker.promoteDue();
                assertThat(worker.runOnce()).as("second %d", second).isEqualTo(1);
            }

            assertThat(ran).containsExactly("m-1", "m-2", "m-3", "m-4", "m-5");
            assertThat(transport.stats(paused).length()).as("enqueued and promoted, not leased").isEqualTo(3);
            assertThat(transport.stats(paused).delayed()).isZero();
            assertThat(transport.stats(paused).pending()).isZero();
            assertThat(transport.stats(paused).paused()).isTrue();

            transport.resume(paused);

            assertThat(worker.runOnce()).isEqualTo(3);
            assertThat(ran).endsWith("r-1", "r-2", "r-later");
            assertThat(ledger.find(paused, JobId.of("r-later"))).isPresent();
        }

        @Test
        void aRunningJobFinishesAndIsAcknowledgedWhileNewOnesWait() {
            RunningWorker worker = start("w1", paused);
            enqueue(paused, "slow-1", Optional.empty());
            await().atMost(WAIT).until(() -> worker.counters().running() == 1);

            transport.pause(paused);
            await().atMost(WAIT).until(() -> worker.pausedQueues().contains(paused));
            enqueue(paused, "r-1", Optional.empty());
            enqueue(paused, "r-2", Optional.empty());
            release.countDown();

            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
            await().atMost(WAIT).until(() -> transport.stats(paused).pending() == 0);
            await().during(TWO_CHECKS).atMost(TWO_CHECKS.multipliedBy(3)).until(() -> ran.equals(List.of("slow-1")));
            assertThat(transport.stats(paused).length()).isEqualTo(3);

            transport.resume(paused);

            await().atMost(WAIT).until(() -> worker.counters().completed() == 3);
            assertThat(worker.pausedQueues()).isEmpty();
            assertThat(ran).containsExactlyInAnyOrder("slow-1", "r-1", "r-2");
        }

        @Test
        void aRestartedWorkerRunsNothingNotEvenWhatItHeldBefore() {
            RunningWorker first = start("w1", paused);
            enqueue(paused, "slow-held", Optional.empty());
            await().atMost(WAIT).until(() -> first.counters().running() == 1);
            assertThat(first.stop(Duration.ZERO)).as("abandoned, still pending for w1").isEqualTo(1);
            release.countDown();
            transport.pause(paused);
            enqueue(paused, "r-1", Optional.empty());

            RunningWorker restarted = start("w1", paused);

            await().atMost(WAIT).until(() -> restarted.pausedQueues().contains(paused));
            await().during(TWO_CHECKS).atMost(TWO_CHECKS.multipliedBy(3)).until(ran::isEmpty);
            assertThat(transport.stats(paused).pending()).as("the held job stays pending").isEqualTo(1);

            transport.resume(paused);
            await().atMost(WAIT).until(() -> ran.contains("r-1"));
            // what w1 held comes back as any abandoned entry does: reclaimed once its lease ran out
            clock.advance(settings.leasing().lease().plusSeconds(1));
            await().atMost(WAIT).until(() -> ran.contains("slow-held"));
            assertThat(restarted.counters().reclaimed()).isEqualTo(1);
        }
    }

    private RunningWorker start(String consumer, QueueName... queues) {
        RunningWorker worker = service().start(command(consumer, queues));
        workers.add(worker);
        return worker;
    }

    private WorkerService service() {
        return new WorkerService(transport, transport, ledger, ledger,
                JobHandlers.of(Map.of(paused.value(), handler, running.value(), handler)), settings, clock,
                () -> 0.5, JobObserver.NONE, MaintenanceObserver.NONE, JobTracing.NONE);
    }

    private static RunWorkerUseCase.Command command(String consumer, QueueName... queues) {
        return new RunWorkerUseCase.Command(List.of(queues), ConsumerName.of(consumer), 4, Optional.empty());
    }

    private void enqueue(QueueName queue, String id, Optional<Instant> at) {
        EnqueueJobUseCase.Command now = EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{}");
        enqueue.enqueue(at.map(now::at).orElse(now));
    }
}
