package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.AtLeastOnceExecution;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Suspects on the in-memory adapters: a delivery taken over from a worker that went silent runs alone in its worker,
 * and only its isolated deliveries count towards the delivery limit.
 */
class SuspectsTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration PAST_LEASE = LEASE.plusSeconds(1);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final EnqueueService enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT);
    private final QueueName queue = QueueName.of("orders");
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final AtomicInteger running = new AtomicInteger();
    private final Map<String, Integer> runningBeside = new ConcurrentHashMap<>();
    private final List<RunningWorker> workers = new ArrayList<>();
    private WorkerSettings settings = WorkerFixture.QUICK_LOOPS;
    private volatile CountDownLatch slowRelease = new CountDownLatch(1);

    @AfterEach
    void stopWorkers() {
        slowRelease.countDown();
        workers.forEach(worker -> worker.stop(Duration.ZERO));
    }

    @Test
    void aSuspectWaitsForTheOthersRunsAloneThenFullConcurrencyResumes() {
        abandon("suspect");
        RunningWorker worker = start("w1", 3);
        enqueue("slow-1");
        enqueue("slow-2");
        await().atMost(WAIT).until(() -> running.get() == 2);

        clock.advance(PAST_LEASE);

        await().atMost(WAIT).until(() -> worker.counters().suspects() == 1);
        assertThat(calls("suspect")).as("held back while the worker's other jobs run").hasValue(0);
        slowRelease.countDown();
        await().atMost(WAIT).until(() -> ledger.find(queue, JobId.of("suspect")).isPresent());
        assertThat(runningBeside).containsEntry("suspect", 0);
        assertThat(worker.counters().isolated()).isEqualTo(1);

        slowRelease = new CountDownLatch(1);
        List.of("slow-3", "slow-4", "slow-5").forEach(this::enqueue);
        await().atMost(WAIT).until(() -> running.get() == 3);
        await().atMost(WAIT).until(() -> worker.counters().suspects() == 0);
    }

    @Test
    void theTransportKnowsASuspectRunsIsolatedUntilItFinishes() {
        abandon("suspect");
        AtomicInteger suspectsSeen = new AtomicInteger(-1);
        handler = context -> {
            suspectsSeen.set((int) transport.stats(queue).suspects());
            return Optional.empty();
        };
        RunningWorker worker = start("w1", 2);

        clock.advance(PAST_LEASE);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(suspectsSeen).hasValue(1);
        assertThat(transport.stats(queue).suspects()).isZero();
        assertThat(transport.stats(queue).isolatedDeliveries()).isZero();
    }

    @Test
    void aJobThatOnlySharedDeadWorkersIsNotPoisonHoweverOften() {
        settings = settings.with(settings.admission().withDeliveryLimit(new DeliveryLimit(1)));
        abandon("unlucky");
        for (int crash = 0; crash < 3; crash++) {
            clock.advance(PAST_LEASE);
            transport.reclaimAbandoned(queue, ConsumerName.of("crashed-" + crash), LEASE, 1);
        }
        clock.advance(PAST_LEASE);

        RunningWorker worker = start("w1", 2);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(calls("unlucky")).hasValue(1);
        assertThat(transport.deadLetters(queue, Optional.empty(), 10)).isEmpty();
        assertThat(worker.counters().isolated()).isEqualTo(1);
    }

    @Test
    void withoutALedgerTooOnlyIsolatedDeliveriesCount() {
        settings = settings.with(settings.admission().withDeliveryLimit(new DeliveryLimit(1)));
        abandon("unlucky");
        clock.advance(PAST_LEASE);
        transport.reclaimAbandoned(queue, ConsumerName.of("crashed"), LEASE, 1);
        clock.advance(PAST_LEASE);

        RunningWorker worker = start("w1", 2, new AtLeastOnceExecution(clock));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().isolated()).isEqualTo(1);
        assertThat(transport.deadLetters(queue, Optional.empty(), 10)).isEmpty();
    }

    @Nested
    class WhenASuspectDiedAloneMoreOftenThanTheLimit {
        @Test
        void itIsDeadLetteredAsPoisonWithoutRunning() {
            settings = settings.with(settings.admission().withDeliveryLimit(new DeliveryLimit(2)));
            abandon("poison");
            for (int crash = 0; crash < 2; crash++) {
                clock.advance(PAST_LEASE);
                ConsumerName isolating = ConsumerName.of("isolating-" + crash);
                Delivery.Leased suspect = (Delivery.Leased) transport.reclaimAbandoned(queue, isolating, LEASE, 1)
                        .deliveries().get(0);
                assertThat(transport.isolate(suspect, isolating)).hasValue(crash + 1); // then its worker died
            }
            clock.advance(PAST_LEASE);

            RunningWorker worker = start("w1", 2);

            DeadLetter letter = awaitDeadLetter().letter();
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.POISON);
            assertThat(letter.attempts()).isEqualTo(4);
            assertThat(calls("poison")).hasValue(0);
            assertThat(worker.counters().reclaimed()).isEqualTo(1);
            assertThat(transport.stats(queue).pending()).isZero();
            assertThat(transport.stats(queue).suspects()).as("forgotten with the entry").isZero();
        }
    }

    @Nested
    class WhenAConsumerRestarts {
        @Test
        void itResumesItsOldestEntryAloneAndReclaimsTheRestAfterTheLease() {
            List.of("held-1", "held-2", "held-3").forEach(SuspectsTest.this::enqueue);
            transport.lease(queue, ConsumerName.of("w1"), 3, Duration.ZERO).deliveries();

            RunningWorker worker = start("w1", 3);

            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
            assertThat(ledger.find(queue, JobId.of("held-1"))).isPresent();
            assertThat(worker.counters().reclaimed()).isZero();
            assertThat(transport.stats(queue).pending()).as("the rest wait for the lease").isEqualTo(2);
            clock.advance(PAST_LEASE);
            await().atMost(WAIT).until(() -> worker.counters().completed() == 3);
            assertThat(worker.counters().reclaimed()).isEqualTo(2);
            assertThat(worker.counters().isolated()).isEqualTo(3);
            assertThat(runningBeside).containsOnly(Map.entry("held-1", 0), Map.entry("held-2", 0),
                    Map.entry("held-3", 0));
        }
    }

    @Test
    void aSuspectTakenOverWhileItWaitedIsNotRunHere() {
        abandon("contested");
        RunningWorker worker = start("w1", 2);
        enqueue("slow-1");
        await().atMost(WAIT).until(() -> running.get() == 1);
        clock.advance(PAST_LEASE);
        await().atMost(WAIT).until(() -> worker.counters().suspects() == 1);

        ConsumerName other = ConsumerName.of("other");
        List<Delivery> taken = transport.reclaimAbandoned(queue, other, Duration.ZERO, 1).deliveries();
        assertThat(taken).extracting(delivery -> ((Delivery.Leased) delivery).job().id().value())
                .containsExactly("contested");
        slowRelease.countDown();

        await().atMost(WAIT).until(() -> worker.counters().suspects() == 0);
        assertThat(calls("contested")).hasValue(0);
        assertThat(transport.isolate((Delivery.Leased) taken.get(0), other)).hasValue(1);
    }

    private JobHandler handler = context -> {
        String id = context.job().id().value();
        calls(id).incrementAndGet();
        runningBeside.put(id, running.getAndIncrement());
        try {
            if (id.startsWith("slow")) {
                slowRelease.await();
            }
        } finally {
            running.decrementAndGet();
        }
        return Optional.empty();
    };

    /** Leases a job to a consumer that then goes silent: after a lease, it is a suspect for whoever reclaims it. */
    private Delivery abandon(String id) {
        enqueue(id);
        return transport.lease(queue, ConsumerName.of("silent"), 1, Duration.ZERO).deliveries().get(0);
    }

    private RunningWorker start(String consumer, int concurrency) {
        return start(consumer, concurrency, ledger);
    }

    private RunningWorker start(String consumer, int concurrency, ExecutionLedger executionLedger) {
        WorkerService service = new WorkerService(transport, transport, executionLedger,
                executionLedger instanceof JobOutcomes outcomes ? outcomes : JobOutcomes.NOT_RECORDED,
                JobHandlers.of(Map.of("orders", context -> handler.handle(context))), settings, clock, () -> 0.5,
                JobObserver.NONE, MaintenanceObserver.NONE, JobTracing.NONE);
        RunningWorker worker = service.start(new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of(consumer),
                concurrency, Optional.empty()));
        workers.add(worker);
        return worker;
    }

    private void enqueue(String id) {
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{}"));
    }

    private AtomicInteger calls(String key) {
        return calls.computeIfAbsent(key, k -> new AtomicInteger());
    }

    private StoredDeadLetter awaitDeadLetter() {
        await().atMost(WAIT).until(() -> !transport.deadLetters(queue, Optional.empty(), 10).isEmpty());
        return transport.deadLetters(queue, Optional.empty(), 10).get(0);
    }
}
