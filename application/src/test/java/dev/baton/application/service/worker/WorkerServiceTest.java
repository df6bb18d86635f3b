package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.service.AtLeastOnceExecution;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.JobThreads;
import dev.baton.application.testing.InMemoryEffects;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Backoff;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Jitter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import dev.baton.domain.StoredDeadLetter;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The worker on the in-memory adapters: each scenario asserts where jobs end up, not how the worker got there. */
class WorkerServiceTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration PAST_LEASE = LEASE.plusSeconds(1);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final EnqueueService enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT);
    private final QueueName queue = QueueName.of("orders");
    private final Map<String, JobHandler> handlers = new HashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final CountDownLatch never = new CountDownLatch(1);
    private final List<RunningWorker> workers = new ArrayList<>();
    private WorkerSettings settings = WorkerSettings.DEFAULTS
            .withLease(LEASE)
            .withIntervals(Duration.ofMillis(20), Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofMillis(10))
            .withJobTimeout(Duration.ofSeconds(5))
            .withRetryPolicy(new RetryPolicy(3, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of()));

    @AfterEach
    void stopWorkers() {
        workers.forEach(worker -> worker.stop(Duration.ZERO));
    }

    @Test
    void aJobRunsOnceCommitsItsEffectAndIsAcknowledged() {
        handlers.put("orders", context -> {
            calls(context.job().id().value()).incrementAndGet();
            context.unwrap(InMemoryEffects.class).increment("shipped:" + context.job().id());
            return Optional.of("shipped");
        });
        RunningWorker worker = start("w1", 2);

        List.of("o-1", "o-2", "o-3").forEach(this::enqueue);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 3);
        assertThat(ledger.committedEffects()).containsOnly(Map.entry("shipped:o-1", "1"),
                Map.entry("shipped:o-2", "1"), Map.entry("shipped:o-3", "1"));
        assertThat(ledger.find(JobId.of("o-2"))).hasValueSatisfying(completion -> {
            assertThat(completion.result()).contains("shipped");
            assertThat(completion.attempt()).isEqualTo(1);
            assertThat(completion.consumer()).isEqualTo(ConsumerName.of("w1"));
        });
        assertThat(transport.stats(queue).pending()).isZero();
        assertThat(calls.values()).allSatisfy(count -> assertThat(count).hasValue(1));
    }

    @Test
    void aBusyWorkerAcknowledgesInFrontOfItsLeasesAndLeavesNothingPending() {
        handlers.put("orders", counting("orders"));
        IntStream.range(0, 200).forEach(i -> enqueue("o-" + i));

        RunningWorker worker = start("w1", 4);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 200);
        assertThat(transport.acknowledgedInFrontOfLeases()).as("acknowledged with the next lease").isPositive();
        assertThat(transport.stats(queue).pending()).isZero();
        assertThat(calls("orders")).hasValue(200);
    }

    @Test
    void aWorkerOfShortJobsLeasesAheadOfThemYetRunsNoMoreAtOnceThanItsConcurrency() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        handlers.put("orders", context -> {
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            running.decrementAndGet();
            return Optional.empty();
        });
        IntStream.range(0, 2_000).forEach(i -> enqueue("o-" + i));

        RunningWorker worker = start("w1", 4);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2_000);
        assertThat(transport.largestLease()).as("leased beyond the four slots of running jobs").isGreaterThan(4)
                .isLessThanOrEqualTo(4 + LeaseAhead.most(4));
        assertThat(mostRunning).hasValueLessThanOrEqualTo(4);
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @ParameterizedTest
    @MethodSource("dev.baton.application.testing.JobThreadChoices#ofThisRuntime")
    void handlersRunOnTheConfiguredJobThreads(JobThreads choice) throws Exception {
        settings = settings.withJobThreads(choice);
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        handlers.put("orders", context -> {
            ranOn.add(Thread.currentThread());
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 4);

        List.of("o-1", "o-2", "o-3").forEach(this::enqueue);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 3);
        assertThat(ranOn).hasSize(3).allSatisfy(thread ->
                assertThat(thread.getName()).startsWith("baton-w1-job-"));
        for (Thread thread : ranOn) {
            assertThat(WorkerThreadsTest.isVirtual(thread)).isEqualTo(choice.resolve(1) == JobThreads.VIRTUAL);
        }
    }

    @Test
    void aTransientFailureIsRetriedAfterItsBackoff() {
        settings = settings.withRetryPolicy(new RetryPolicy(3, new Backoff.Fixed(Duration.ofSeconds(5)),
                Jitter.NONE, Set.of()));
        handlers.put("orders", context -> {
            if (calls("flaky").incrementAndGet() == 1) {
                throw new IOException("connection reset");
            }
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);

        enqueue("flaky");

        await().atMost(WAIT).until(() -> transport.stats(queue).delayed() == 1);
        assertThat(worker.counters().retried()).isEqualTo(1);
        assertThat(transport.find(queue, JobId.of("flaky"))).hasValueSatisfying(sighting ->
                assertThat(((JobSighting.Delayed) sighting).job().lastError()).hasValueSatisfying(error ->
                        assertThat(error.type()).isEqualTo(IOException.class.getName())));
        clock.advance(Duration.ofSeconds(5));
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(ledger.find(JobId.of("flaky"))).hasValueSatisfying(c -> assertThat(c.attempt()).isEqualTo(2));
        assertThat(calls("flaky")).hasValue(2);
    }

    @Test
    void aJobThatKeepsFailingIsDeadLetteredAsExhausted() {
        handlers.put("orders", context -> {
            calls("doomed").incrementAndGet();
            throw new IllegalStateException("boom");
        });
        RunningWorker worker = start("w1", 1);

        enqueue("doomed");

        DeadLetter letter = awaitDeadLetter().letter();
        assertThat(letter.reason()).isEqualTo(DeadLetterReason.EXHAUSTED);
        assertThat(letter.attempts()).isEqualTo(3);
        assertThat(letter.lastError().type()).isEqualTo(IllegalStateException.class.getName());
        assertThat(letter.lastError().message()).isEqualTo("boom");
        assertThat(calls("doomed")).hasValue(3);
        assertThat(worker.counters().retried()).isEqualTo(2);
        assertThat(worker.counters().deadLettered()).isEqualTo(1);
        assertThat(ledger.find(JobId.of("doomed"))).isEmpty();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aNonRetryableFailureIsDeadLetteredAtOnce() {
        handlers.put("orders", context -> {
            calls("refused").incrementAndGet();
            throw new NonRetryableException("unknown customer");
        });
        start("w1", 1);

        enqueue("refused");

        DeadLetter letter = awaitDeadLetter().letter();
        assertThat(letter.reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
        assertThat(letter.lastError().message()).isEqualTo("unknown customer");
        assertThat(letter.lastError().retryable()).isFalse();
        assertThat(calls("refused")).hasValue(1);
    }

    @Test
    void theJobTypeSelectsTheHandlerAndUntypedJobsRunTheWorkersHandler() {
        handlers.put("email", counting("email"));
        handlers.put("default", counting("default"));
        RunningWorker worker = start(command(queue, "w1", 1, Optional.of("default")));

        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("typed"), "{}").withType("email"));
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("unknown-type"), "{}").withType("sms"));
        enqueue("untyped");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2 && worker.counters().deadLettered() == 1);
        assertThat(calls("email")).hasValue(1);
        assertThat(calls("default")).hasValue(1);
    }

    @Test
    void aJobWithoutHandlerIsDeadLetteredAndTheWorkerGoesOn() {
        handlers.put("email", counting("email"));
        RunningWorker worker = start("w1", 1);

        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("lost"), "{}").withType("mystery"));
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("fine"), "{}").withType("email"));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(calls("email")).hasValue(1);
        DeadLetter letter = awaitDeadLetter().letter();
        assertThat(letter.reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
        assertThat(letter.job()).hasValueSatisfying(job -> assertThat(job.id()).isEqualTo(JobId.of("lost")));
    }

    @Test
    void aJobNoHandlerMatchesNamesWhatWasTried() {
        QueueName lonely = QueueName.of("nobody-home");
        RunningWorker worker = start(command(lonely, "w1", 1, Optional.empty()));

        enqueue.enqueue(EnqueueJobUseCase.Command.now(lonely, JobId.of("orphan"), "{}").withType("mystery"));

        await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1);
        StoredDeadLetter stored = transport.deadLetters(lonely, Optional.empty(), 10).get(0);
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
        assertThat(stored.letter().lastError().message()).isEqualTo("no handler named mystery");
    }

    @Test
    void aTypedJobNeverFallsBackToTheQueuesHandler() {
        AtomicInteger ranAsOrder = new AtomicInteger();
        handlers.put("orders", context -> {
            ranAsOrder.incrementAndGet();
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);

        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("refund-1"), "{}").withType("refund"));
        enqueue("plain-order");

        await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1 && worker.counters().completed() == 1);
        StoredDeadLetter stored = transport.deadLetters(queue, Optional.empty(), 10).get(0);
        assertThat(stored.letter().jobId()).contains("refund-1");
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
        assertThat(stored.letter().lastError().message()).isEqualTo("no handler named refund");
        assertThat(ranAsOrder).hasValue(1);
    }

    @Test
    void aMalformedEntryIsDeadLetteredAndTheWorkerKeepsGoing() {
        handlers.put("orders", counting("orders"));
        RunningWorker worker = start("w1", 1);
        Map<String, String> garbage = Map.of("payload", "{}", "note", "no job id");

        transport.appendRaw(queue, garbage);
        enqueue("after-garbage");

        DeadLetter letter = awaitDeadLetter().letter();
        assertThat(letter.reason()).isEqualTo(DeadLetterReason.MALFORMED);
        assertThat(letter.rawFields()).isEqualTo(garbage);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void entriesOfACrashedConsumerAreReclaimedAfterTheLease() {
        handlers.put("orders", context -> {
            calls(context.consumer().value()).incrementAndGet();
            if (context.consumer().equals(ConsumerName.of("doomed-worker"))) {
                never.await();
            }
            return Optional.empty();
        });
        RunningWorker doomed = start("doomed-worker", 1);
        enqueue("survivor");
        await().atMost(WAIT).until(() -> doomed.counters().running() == 1);

        assertThat(doomed.stop(Duration.ZERO)).isEqualTo(1);
        assertThat(transport.stats(queue).pending()).isEqualTo(1);
        RunningWorker rescuer = start("rescuer", 1);
        clock.advance(PAST_LEASE);

        await().atMost(WAIT).until(() -> rescuer.counters().completed() == 1);
        assertThat(rescuer.counters().reclaimed()).isEqualTo(1);
        assertThat(ledger.find(JobId.of("survivor"))).hasValueSatisfying(completion ->
                assertThat(completion.consumer()).isEqualTo(ConsumerName.of("rescuer")));
        assertThat(transport.stats(queue).pending()).isZero();
        assertThat(calls("rescuer")).hasValue(1);
    }

    @Test
    void aReclaimedSuspectRunsBeforeTheFetcherLeasesAgain() {
        AtomicLong leasesBeforeTheSuspectRan = new AtomicLong(-1);
        handlers.put("orders", context -> {
            if (context.consumer().equals(ConsumerName.of("doomed-worker"))) {
                never.await();
            }
            // a lease begun after the reclaim holds the slots the suspect waits for: on an idle queue, a second
            leasesBeforeTheSuspectRan.set(transport.leasesSinceLastReclaim());
            return Optional.empty();
        });
        RunningWorker doomed = start("doomed-worker", 1);
        enqueue("suspect");
        await().atMost(WAIT).until(() -> doomed.counters().running() == 1);
        doomed.stop(Duration.ZERO);
        RunningWorker rescuer = start("rescuer", 4);
        clock.advance(PAST_LEASE);

        await().atMost(WAIT).until(() -> rescuer.counters().completed() == 1);
        assertThat(rescuer.counters().reclaimed()).isEqualTo(1);
        assertThat(leasesBeforeTheSuspectRan).hasValue(0);
    }

    @Test
    void aConsumerResumesItsOwnPendingEntriesWhenItRestarts() {
        handlers.put("orders", counting("orders"));
        enqueue("held");
        transport.lease(queue, ConsumerName.of("w1"), 1, Duration.ZERO).deliveries();

        RunningWorker worker = start("w1", 1);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().reclaimed()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aCompletedJobPublishedAgainIsAcknowledgedAndItsWritesRollBack() {
        handlers.put("orders", context -> {
            context.unwrap(InMemoryEffects.class).put("shipped-again", "yes");
            return Optional.empty();
        });
        complete("done-before");
        RunningWorker worker = start("w1", 1);

        enqueue("done-before");

        await().atMost(WAIT).until(() -> worker.counters().duplicates() == 1);
        assertThat(ledger.committedEffects()).doesNotContainKey("shipped-again");
        assertThat(worker.counters().completed()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aCommitWhoseAcknowledgementWasLostCompletesOnRedeliveryWithoutRunningTwice() {
        handlers.put("orders", context -> {
            calls("orders").incrementAndGet();
            context.unwrap(InMemoryEffects.class).increment("runs");
            return Optional.empty();
        });
        ledger.crashAfterNextCommit();
        RunningWorker worker = start("w1", 1);

        enqueue("lost-ack");

        await().atMost(WAIT).until(() -> ledger.find(JobId.of("lost-ack")).isPresent()
                && worker.counters().running() == 0);
        clock.advance(PAST_LEASE);
        await().atMost(WAIT).until(() -> worker.counters().duplicates() == 1);
        assertThat(ledger.committedEffects()).containsEntry("runs", "1");
        assertThat(calls("orders")).as("the redelivery is checked before its handler runs").hasValue(1);
        assertThat(worker.counters().reclaimed()).isEqualTo(1);
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void anUnavailableLedgerLeavesTheJobPendingForRedelivery() {
        handlers.put("orders", counting("orders"));
        ledger.setUnavailable(true);
        RunningWorker worker = start("w1", 1);

        enqueue("patient");

        await().atMost(WAIT).until(() -> transport.find(queue, JobId.of("patient"))
                .filter(JobSighting.Pending.class::isInstance).isPresent() && worker.counters().running() == 0);
        assertThat(worker.counters().retried()).isZero();
        assertThat(transport.stats(queue).delayed()).isZero();
        ledger.setUnavailable(false);
        clock.advance(PAST_LEASE);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().reclaimed()).isEqualTo(1);
        assertThat(calls("orders")).hasValue(1);
    }

    @Test
    void gracefulStopFinishesWhatItCanAndLeavesTheRestPending() throws Exception {
        CountDownLatch releaseSlow = new CountDownLatch(1);
        handlers.put("orders", context -> {
            String id = context.job().id().value();
            calls(id).incrementAndGet();
            if (id.equals("slow")) {
                releaseSlow.await();
            } else if (id.equals("stuck")) {
                never.await();
            }
            context.unwrap(InMemoryEffects.class).put(id, "done");
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 3);
        List.of("quick", "slow", "stuck").forEach(this::enqueue);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1 && worker.counters().running() == 2);

        CompletableFuture<Integer> stopping = CompletableFuture.supplyAsync(() -> worker.stop(Duration.ofSeconds(1)));
        await().atMost(WAIT).until(() -> !worker.isRunning());
        releaseSlow.countDown();

        assertThat(stopping.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(worker.counters().completed()).isEqualTo(2);
        assertThat(ledger.committedEffects()).containsOnlyKeys("quick", "slow");
        assertThat(transport.find(queue, JobId.of("stuck"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOf(JobSighting.Pending.class));
        assertThat(transport.stats(queue).pending()).isEqualTo(1);
        assertThat(worker.stop(Duration.ZERO)).isEqualTo(1);
    }

    @Test
    void leaseExtensionKeepsASlowJobFromBeingStolen() {
        CountDownLatch release = new CountDownLatch(1);
        handlers.put("orders", context -> {
            release.await();
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);
        enqueue("slow");
        await().atMost(WAIT).until(() -> worker.counters().running() == 1);

        for (int i = 0; i < 3; i++) {
            clock.advance(LEASE.dividedBy(2));
            await().atMost(WAIT).until(() -> pendingIdle("slow").isZero());
        }
        clock.advance(LEASE.minusSeconds(1));
        Reclaimed stolen = transport.reclaimAbandoned(queue, ConsumerName.of("thief"), LEASE, 10);

        assertThat(stolen).isEqualTo(Reclaimed.NONE);
        release.countDown();
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().leasesLost()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aJobWhoseLeaseWasTakenIsNotAcknowledgedByTheWorkerThatLostIt() {
        CountDownLatch release = new CountDownLatch(1);
        handlers.put("orders", context -> {
            release.await();
            context.unwrap(InMemoryEffects.class).increment("runs");
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);
        enqueue("contested");
        await().atMost(WAIT).until(() -> worker.counters().running() == 1);
        ConsumerName thief = ConsumerName.of("thief");

        // the worker extends its lease every 10 ms: move the clock and steal in between
        await().atMost(WAIT).until(() -> {
            clock.advance(PAST_LEASE);
            return !transport.reclaimAbandoned(queue, thief, LEASE, 1).deliveries().isEmpty();
        });
        await().atMost(WAIT).until(() -> worker.counters().leasesLost() == 1);
        release.countDown();
        await().atMost(WAIT).until(() -> worker.counters().running() == 0);

        assertThat(worker.counters().completed()).isZero();
        assertThat(ledger.committedEffects()).containsEntry("runs", "1");
        assertThat(transport.find(queue, JobId.of("contested"))).hasValueSatisfying(sighting ->
                assertThat(((JobSighting.Pending) sighting).consumer()).isEqualTo(thief.value()));
    }

    @Test
    void anAttemptPastItsTimeoutIsInterruptedRolledBackAndCountsAsAFailure() {
        settings = settings.withJobTimeout(Duration.ofMillis(100))
                .withRetryPolicy(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of()));
        AtomicReference<Boolean> interrupted = new AtomicReference<>(false);
        handlers.put("orders", context -> {
            context.unwrap(InMemoryEffects.class).put("half-done", "yes");
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return Optional.empty();
        });
        start("w1", 1);

        enqueue("sleepy");

        DeadLetter letter = awaitDeadLetter().letter();
        assertThat(letter.reason()).isEqualTo(DeadLetterReason.EXHAUSTED);
        assertThat(letter.lastError().type()).isEqualTo("timeout");
        assertThat(interrupted.get()).isTrue();
        assertThat(ledger.committedEffects()).isEmpty();
    }

    /** On a virtual thread the deadline's interrupt closes the socket the handler waits on: still a timeout. */
    @Test
    void aConnectionLostToTheDeadlinesInterruptIsATimeoutRetriedNotAnOutage() {
        settings = settings.withJobTimeout(Duration.ofMillis(100))
                .withRetryPolicy(new RetryPolicy(2, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of()));
        handlers.put("orders", context -> {
            InMemoryEffects effects = context.unwrap(InMemoryEffects.class);
            effects.put("attempt-" + context.attempt(), "written");
            if (context.attempt() == 1) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    effects.loseConnection();
                    throw new IOException("Closed by interrupt", e);
                }
            }
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);

        enqueue("stuck");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().retried()).isEqualTo(1);
        assertThat(worker.counters().reclaimed()).isZero(); // retried at once, not left to wait for the lease
        assertThat(ledger.committedEffects()).containsOnlyKeys("attempt-2");
        assertThat(ledger.find(JobId.of("stuck"))).hasValueSatisfying(c -> assertThat(c.attempt()).isEqualTo(2));
    }

    @Test
    void aConnectionLostWithoutADeadlineStillLeavesTheJobPending() {
        CountDownLatch running = new CountDownLatch(1);
        handlers.put("orders", context -> {
            calls("orders").incrementAndGet();
            if (context.attempt() == 1 && calls("orders").get() == 1) {
                context.unwrap(InMemoryEffects.class).loseConnection();
                running.countDown();
            }
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);

        enqueue("outage");

        await().atMost(WAIT).until(() -> running.getCount() == 0 && worker.counters().running() == 0
                && transport.find(queue, JobId.of("outage")).filter(JobSighting.Pending.class::isInstance)
                .isPresent());
        assertThat(worker.counters().retried()).isZero();
        clock.advance(PAST_LEASE);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().reclaimed()).isEqualTo(1);
    }

    @Test
    void aHandlerThatIgnoresItsDeadlineCannotCommit() {
        settings = settings.withJobTimeout(Duration.ofMillis(50))
                .withRetryPolicy(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of()));
        handlers.put("orders", context -> {
            long end = System.nanoTime() + Duration.ofMillis(200).toNanos();
            while (System.nanoTime() < end) {
                Thread.onSpinWait(); // busy and deaf to interrupts
            }
            context.unwrap(InMemoryEffects.class).put("late", "yes");
            return Optional.empty();
        });
        start("w1", 1);

        enqueue("late");

        assertThat(awaitDeadLetter().letter().lastError().type()).isEqualTo("timeout");
        assertThat(ledger.committedEffects()).isEmpty();
    }

    @Test
    void batchedJobsCommitTogetherAndAFailureRetriesOnlyItsOwnJob() {
        settings = settings.withBatchCommit(4);
        List<Integer> batchSizes = new CopyOnWriteArrayList<>();
        handlers.put("orders", context -> {
            String id = context.job().id().value();
            context.unwrap(InMemoryEffects.class).increment("shipped:" + id);
            if (id.equals("b-2") && calls(id).incrementAndGet() == 1) {
                throw new IOException("carrier down");
            }
            return Optional.empty();
        });
        List.of("b-1", "b-2", "b-3", "b-4").forEach(this::enqueue);

        // concurrency 16: four transactions at once, each taking up to 4 of the jobs ready
        RunningWorker worker = track(service(recordingBatches(batchSizes), JobObserver.NONE)
                .start(command(queue, "w1", 16, Optional.empty())));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 4);
        assertThat(batchSizes.get(0)).isEqualTo(4);
        assertThat(worker.counters().retried()).isEqualTo(1);
        assertThat(ledger.committedEffects()).containsOnly(Map.entry("shipped:b-1", "1"),
                Map.entry("shipped:b-2", "1"), Map.entry("shipped:b-3", "1"), Map.entry("shipped:b-4", "1"));
        assertThat(transport.stats(queue).pending()).isZero();
        assertThat(ledger.find(JobId.of("b-2"))).hasValueSatisfying(c -> assertThat(c.attempt()).isEqualTo(2));
    }

    @Test
    void aBatchTakesNoMoreThanItsShareOfTheConcurrencySoTheOtherTransactionsGetJobsToo() {
        settings = settings.withBatchCommit(8);
        List<Integer> batchSizes = new CopyOnWriteArrayList<>();
        handlers.put("orders", context -> Optional.empty());
        for (int i = 0; i < 8; i++) {
            enqueue("share-" + i);
        }

        // concurrency 8 with batches of up to 8: four transactions at once, two jobs each
        RunningWorker worker = track(service(recordingBatches(batchSizes), JobObserver.NONE)
                .start(command(queue, "w1", 8, Optional.empty())));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 8);
        assertThat(batchSizes).allSatisfy(size -> assertThat(size).isBetween(1, 2));
        assertThat(batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(8);
    }

    @Test
    void aBatchSharesOneDeadlineAndJobsNotRunByThenFailAsTimedOut() {
        settings = settings.withBatchCommit(2).withJobTimeout(Duration.ofMillis(100))
                .withRetryPolicy(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of()));
        handlers.put("orders", context -> {
            calls("runs").incrementAndGet();
            context.unwrap(InMemoryEffects.class).put("half-done:" + context.job().id(), "yes");
            never.await();
            return Optional.empty();
        });
        enqueue("slow-1");
        enqueue("slow-2");

        // concurrency 8: four transactions at once, each taking up to both of the jobs ready
        RunningWorker worker = start("w1", 8);

        Supplier<List<StoredDeadLetter>> letters = () -> transport.deadLetters(queue, Optional.empty(), 10);
        await().atMost(WAIT).until(() -> letters.get().size() == 2);
        assertThat(letters.get()).allSatisfy(stored ->
                assertThat(stored.letter().lastError().type()).isEqualTo("timeout"));
        assertThat(calls("runs")).hasValue(1);
        assertThat(ledger.committedEffects()).isEmpty();
        assertThat(worker.counters().completed()).isZero();
    }

    @Test
    void atLeastOnceModeRunsEveryDeliveryWithoutATransaction() {
        AtomicReference<Throwable> unwrapped = new AtomicReference<>();
        handlers.put("orders", context -> {
            calls("runs").incrementAndGet();
            try {
                context.unwrap(InMemoryEffects.class);
            } catch (UnsupportedOperationException e) {
                unwrapped.set(e);
            }
            return Optional.empty();
        });
        RunningWorker worker = track(service(new AtLeastOnceExecution(clock), JobObserver.NONE)
                .start(command(queue, "w1", 1, Optional.empty())));

        enqueue("same");
        enqueue("same");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2);
        assertThat(calls("runs")).hasValue(2);
        assertThat(worker.counters().duplicates()).isZero();
        assertThat(unwrapped.get()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theWorkerNeverHoldsMoreJobsThanItsConcurrency() {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        handlers.put("orders", context -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            release.await();
            running.decrementAndGet();
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 2);
        for (int i = 0; i < 10; i++) {
            enqueue("bulk-" + i);
        }

        await().atMost(WAIT).until(() -> worker.counters().running() == 2);
        await().during(Duration.ofMillis(200)).atMost(WAIT).until(() -> transport.stats(queue).pending() == 2);
        assertThat(transport.stats(queue).lag()).hasValue(8);
        release.countDown();

        await().atMost(WAIT).until(() -> worker.counters().completed() == 10);
        assertThat(mostAtOnce).hasValue(2);
    }

    @Test
    void theWorkerSurvivesTransportFailures() {
        handlers.put("orders", counting("orders"));
        transport.failNextLeases(2);
        RunningWorker worker = start("w1", 1);

        enqueue("resilient");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.isRunning()).isTrue();
    }

    @Test
    void delayedJobsRunOnlyOnceDue() {
        handlers.put("orders", counting("orders"));
        RunningWorker worker = start("w1", 1);

        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("later"), "{}").after(Duration.ofMinutes(5)));
        enqueue("now");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(transport.stats(queue).delayed()).isEqualTo(1);
        clock.advance(Duration.ofMinutes(5));
        await().atMost(WAIT).until(() -> worker.counters().completed() == 2);
    }

    @Test
    void stopWithoutRunningJobsAbandonsNothing() {
        RunningWorker worker = start("w1", 4);

        assertThat(worker.stop(Duration.ofSeconds(1))).isZero();
        assertThat(worker.isRunning()).isFalse();
        assertThat(worker.counters().running()).isZero();
    }

    @Test
    void oneWorkerServesAllItsQueues() {
        QueueName emails = QueueName.of("emails");
        handlers.put("orders", counting("orders"));
        handlers.put("emails", counting("emails"));
        RunningWorker worker = track(service(ledger, JobObserver.NONE).start(new RunWorkerUseCase.Command(
                List.of(queue, emails), ConsumerName.of("w1"), 2, Optional.empty())));

        enqueue("o-1");
        enqueue.enqueue(EnqueueJobUseCase.Command.now(emails, JobId.of("e-1"), "{}"));
        enqueue.enqueue(EnqueueJobUseCase.Command.now(emails, JobId.of("e-2"), "{}").after(Duration.ofSeconds(1)));
        clock.advance(Duration.ofSeconds(1));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 3);
        assertThat(calls("orders")).hasValue(1);
        assertThat(calls("emails")).hasValue(2);
    }

    @Test
    void theObserverHearsEveryOutcome() {
        RecordingObserver observer = new RecordingObserver();
        handlers.put("orders", context -> {
            String id = context.job().id().value();
            if (id.equals("refused")) {
                throw new NonRetryableException("no");
            }
            if (id.equals("flaky") && calls(id).incrementAndGet() == 1) {
                throw new IOException("reset");
            }
            return Optional.empty();
        });
        complete("duplicate");
        List.of("fine", "flaky", "refused", "duplicate").forEach(this::enqueue);
        clock.advance(Duration.ofSeconds(3));

        RunningWorker worker = track(service(ledger, observer).start(command(queue, "w1", 2, Optional.empty())));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2 && worker.counters().duplicates() == 1
                && worker.counters().deadLettered() == 1);
        assertThat(observer.count("started")).isEqualTo(5); // flaky twice, the duplicate too
        assertThat(observer.count("completed")).isEqualTo(2);
        assertThat(observer.count("duplicate")).isEqualTo(1);
        assertThat(observer.count("failed")).isEqualTo(2);
        assertThat(observer.count("retried")).isEqualTo(1);
        assertThat(observer.count("dead:" + DeadLetterReason.NON_RETRYABLE)).isEqualTo(1);
        assertThat(observer.waits).hasSize(5).containsOnly(Duration.ofSeconds(3));
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    private RunningWorker start(String consumer, int concurrency) {
        return start(command(queue, consumer, concurrency, Optional.empty()));
    }

    private RunningWorker start(RunWorkerUseCase.Command command) {
        return track(service(ledger, JobObserver.NONE).start(command));
    }

    private WorkerService service(ExecutionLedger executionLedger, JobObserver observer) {
        JobOutcomes outcomes = executionLedger instanceof AtLeastOnceExecution ? JobOutcomes.NOT_RECORDED : ledger;
        return new WorkerService(transport, transport, executionLedger, outcomes, JobHandlers.of(handlers), settings,
                clock, () -> 0.5, observer, MaintenanceObserver.NONE, JobTracing.NONE);
    }

    /** The in-memory ledger, recording how many jobs each {@code executeAll} call gets. */
    private ExecutionLedger recordingBatches(List<Integer> sizes) {
        return new ExecutionLedger() {
            @Override
            public LedgerOutcome execute(Execution execution, Effect effect) {
                return ledger.execute(execution, effect);
            }

            @Override
            public List<LedgerOutcome> executeAll(List<Step> steps) {
                sizes.add(steps.size());
                return ledger.executeAll(steps);
            }

            @Override
            public Optional<Completion> find(JobId id) {
                return ledger.find(id);
            }

            @Override
            public long countCompleted(QueueName name) {
                return ledger.countCompleted(name);
            }

            @Override
            public long forgetCompletedBefore(Instant cutoff) {
                return ledger.forgetCompletedBefore(cutoff);
            }
        };
    }

    private void complete(String id) {
        Job done = Job.create(JobId.of(id), queue, "{}", clock.instant());
        ledger.execute(new ExecutionLedger.Execution(done, ConsumerName.of("earlier"), new DeliveryId("1-0"),
                1, clock.instant()), transaction -> Optional.empty());
    }

    private RunningWorker track(RunningWorker worker) {
        workers.add(worker);
        return worker;
    }

    private void enqueue(String id) {
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{\"id\":\"" + id + "\"}"));
    }

    private AtomicInteger calls(String key) {
        return calls.computeIfAbsent(key, k -> new AtomicInteger());
    }

    private JobHandler counting(String key) {
        return context -> {
            calls(key).incrementAndGet();
            return Optional.empty();
        };
    }

    private StoredDeadLetter awaitDeadLetter() {
        Supplier<List<StoredDeadLetter>> letters = () -> transport.deadLetters(queue, Optional.empty(), 10);
        await().atMost(WAIT).until(() -> !letters.get().isEmpty());
        assertThat(letters.get()).hasSize(1);
        return letters.get().get(0);
    }

    private Duration pendingIdle(String id) {
        return transport.find(queue, JobId.of(id))
                .map(sighting -> ((JobSighting.Pending) sighting).idle())
                .orElseThrow();
    }

    private static RunWorkerUseCase.Command command(QueueName queue, String consumer, int concurrency,
                                                    Optional<String> handler) {
        return new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of(consumer), concurrency, handler);
    }

    /** Counts what it hears, by event name. */
    private static final class RecordingObserver implements JobObserver {
        private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        private final List<Duration> waits = new CopyOnWriteArrayList<>();

        int count(String event) {
            return counts.getOrDefault(event, new AtomicInteger()).get();
        }

        private void hear(String event) {
            counts.computeIfAbsent(event, e -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void jobStarted(Job job, Duration waited) {
            waits.add(waited);
            hear("started");
        }

        @Override
        public void jobCompleted(Job job, Duration processing) {
            hear("completed");
        }

        @Override
        public void duplicateSkipped(Job job) {
            hear("duplicate");
        }

        @Override
        public void jobFailed(Job job, JobError error) {
            hear("failed");
        }

        @Override
        public void jobRetried(Job job, Instant at) {
            hear("retried");
        }

        @Override
        public void jobDeadLettered(DeadLetter letter) {
            hear("dead:" + letter.reason());
        }
    }
}
