package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.CancelService;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.testing.InMemoryEffects;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Cancelling jobs, on the in-memory adapters: what a worker runs, acknowledges and counts once a job is cancelled. */
class CancelledJobsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final EnqueueService enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT);
    private final CancelService cancels = new CancelService(ledger, transport, clock);
    private final QueueName queue = QueueName.of("reports");
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final List<RunningWorker> workers = new ArrayList<>();
    private WorkerSettings settings = WorkerFixture.QUICK_LOOPS;
    private JobHandler handler = context -> {
        ran.add(context.job().id().value());
        context.unwrap(InMemoryEffects.class).put("effect:" + context.job().id().value(), "done");
        return Optional.empty();
    };

    @AfterEach
    void stopWorkers() {
        workers.forEach(worker -> worker.stop(Duration.ZERO));
    }

    @Test
    void aCancelledWaitingJobIsAcknowledgedWithoutRunningAndCounted() {
        InlineWorker worker = service().inline(command(1));
        enqueue("doomed", Optional.empty());
        enqueue("kept", Optional.empty());

        assertThat(cancel("doomed")).isEqualTo(CancelJobUseCase.Answer.CANCELLED);
        assertThat(cancel("doomed")).isEqualTo(CancelJobUseCase.Answer.ALREADY_CANCELLED);
        assertThat(worker.runOnce()).isEqualTo(1);
        assertThat(worker.runOnce()).isEqualTo(1);

        assertThat(ran).containsExactly("kept");
        assertThat(worker.counters().cancelled()).isEqualTo(1);
        assertThat(worker.counters().completed()).isEqualTo(1);
        assertThat(transport.stats(queue).pending()).as("acknowledged").isZero();
        assertThat(ledger.find(queue, "doomed")).hasValueSatisfying(outcome ->
                assertThat(outcome).isInstanceOf(JobOutcome.Cancelled.class));
    }

    @Test
    void aCancelledDelayedJobIsPromotedAndAcknowledgedWithoutRunning() {
        InlineWorker worker = service().inline(command(1));
        enqueue("later", Optional.of(clock.instant().plusSeconds(60)));

        cancel("later");
        clock.advance(Duration.ofSeconds(61));
        worker.promoteDue();

        assertThat(worker.runOnce()).isEqualTo(1);
        assertThat(ran).isEmpty();
        assertThat(worker.counters().cancelled()).isEqualTo(1);
        assertThat(transport.stats(queue).delayed()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aCancelOfAnIdNothingKnowsCancelsTheJobEnqueuedWithItLater() {
        InlineWorker worker = service().inline(command(1));

        assertThat(cancel("not-yet")).isEqualTo(CancelJobUseCase.Answer.CANCELLED);
        enqueue("not-yet", Optional.empty());

        assertThat(worker.runOnce()).isEqualTo(1);
        assertThat(ran).isEmpty();
        assertThat(worker.counters().cancelled()).isEqualTo(1);
    }

    @Test
    void aCompletedJobCannotBeCancelledItsCommitStands() {
        InlineWorker worker = service().inline(command(1));
        enqueue("done", Optional.empty());
        worker.runOnce();

        assertThat(cancel("done")).isEqualTo(CancelJobUseCase.Answer.ALREADY_COMPLETED);
        assertThat(transport.cancelled(queue, List.of(JobId.of("done")))).as("the transport is not told").isEmpty();
        assertThat(ledger.committedEffects()).containsKey("effect:done");
    }

    @Nested
    class WhenARunningJobIsCancelled {
        @Test
        void itSeesCancelledRollsBackAndIsAcknowledgedWithoutARetry() throws Exception {
            CountDownLatch started = new CountDownLatch(1);
            AtomicBoolean sawCancel = new AtomicBoolean();
            handler = context -> {
                started.countDown();
                context.unwrap(InMemoryEffects.class).put("effect:" + context.job().id().value(), "partial");
                await().atMost(WAIT).until(context::cancelled);
                sawCancel.set(true);
                return Optional.empty(); // a cooperative handler returns: its writes roll back all the same
            };
            RunningWorker worker = start(1);
            enqueue("long", Optional.empty());
            assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

            assertThat(cancel("long")).isEqualTo(CancelJobUseCase.Answer.CANCELLED);

            await().atMost(WAIT).until(() -> worker.counters().cancelled() == 1);
            assertThat(sawCancel).isTrue();
            assertThat(ledger.committedEffects()).doesNotContainKey("effect:long");
            assertThat(worker.counters().retried()).isZero();
            assertThat(transport.stats(queue).pending()).isZero();
            assertThat(transport.stats(queue).delayed()).as("no retry").isZero();
        }

        @Test
        void aHandlerIgnoringTheCancelIsInterruptedAfterTheGrace() throws Exception {
            settings = settings.with(settings.stopping().withCancelGrace(Duration.ofMillis(200)));
            CountDownLatch started = new CountDownLatch(1);
            AtomicBoolean interrupted = new AtomicBoolean();
            handler = context -> {
                started.countDown();
                try {
                    new CountDownLatch(1).await(WAIT.toMillis(), TimeUnit.MILLISECONDS); // deaf to cancelled()
                } catch (InterruptedException e) {
                    interrupted.set(context.cancelled());
                    throw e;
                }
                return Optional.empty();
            };
            RunningWorker worker = start(1);
            enqueue("stubborn", Optional.empty());
            assertThat(started.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

            cancel("stubborn");

            await().atMost(WAIT).until(() -> worker.counters().cancelled() == 1);
            assertThat(interrupted).as("interrupted, and cancelled() was true by then").isTrue();
            assertThat(worker.counters().retried()).isZero();
            assertThat(transport.stats(queue).pending()).isZero();
        }
    }

    @Test
    void aFailedCancelReadLeavesTheBatchPendingAndFreesItsSlotsOnce() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        handler = context -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                running.decrementAndGet();
            }
            ran.add(context.job().id().value());
            return Optional.empty();
        };
        transport.failNextCancelReads(1);
        RunningWorker worker = start(2);
        enqueue("first", Optional.empty());
        await().atMost(WAIT).until(() -> transport.stats(queue).pending() == 1 && worker.counters().running() == 0);

        // left pending for a redelivery; the worker goes on with exactly its two slots
        for (int i = 0; i < 6; i++) {
            enqueue("next-" + i, Optional.empty());
        }
        await().atMost(WAIT).until(() -> running.get() == 2);
        assertThat(worker.counters().running()).isEqualTo(2);
        release.countDown();
        await().atMost(WAIT).until(() -> worker.counters().completed() == 6);

        assertThat(mostAtOnce).as("never more jobs at once than slots").hasValue(2);
        assertThat(ran).doesNotContain("first");
        assertThat(transport.stats(queue).pending()).as("the failed one waits for its redelivery").isEqualTo(1);
    }

    private CancelJobUseCase.Answer cancel(String id) {
        return cancels.cancel(new CancelJobUseCase.Command(queue, JobId.of(id)));
    }

    private RunningWorker start(int concurrency) {
        RunningWorker worker = service().start(command(concurrency));
        workers.add(worker);
        return worker;
    }

    private WorkerService service() {
        JobHandler delegating = context -> handler.handle(context);
        return new WorkerService(transport, transport, ledger, ledger, JobHandlers.of(Map.of(queue.value(),
                delegating)), settings, clock, () -> 0.5, JobObserver.NONE, MaintenanceObserver.NONE, JobTracing.NONE);
    }

    private RunWorkerUseCase.Command command(int concurrency) {
        return new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of("w1"), concurrency, Optional.empty());
    }

    private void enqueue(String id, Optional<Instant> at) {
        EnqueueJobUseCase.Command now = EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{}");
        enqueue.enqueue(at.map(now::at).orElse(now));
    }
}
