package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.service.AtLeastOnceExecution;
import dev.baton.application.service.JobThreads;
import dev.baton.application.testing.InMemoryEffects;
import dev.baton.domain.Backoff;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Jitter;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import dev.baton.domain.StoredDeadLetter;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The worker on the in-memory adapters: each scenario asserts where jobs end up, not how the worker got there. */
class WorkerServiceTest extends WorkerFixture {

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
        assertThat(ledger.find(queue, JobId.of("o-2"))).hasValueSatisfying(completion -> {
            assertThat(completion.result()).contains("shipped");
            assertThat(completion.attempt()).isEqualTo(1);
            assertThat(completion.consumer()).isEqualTo(ConsumerName.of("w1"));
        });
        assertThat(transport.stats(queue).pending()).isZero();
        assertThat(calls.values()).allSatisfy(count -> assertThat(count).hasValue(1));
    }

    @Nested
    class WhenTheWorkerIsBusy {
        @Test
        void itAcknowledgesInFrontOfItsLeasesAndLeavesNothingPending() {
            handlers.put("orders", counting("orders"));
            IntStream.range(0, 200).forEach(i -> enqueue("o-" + i));
            transport.holdDirectAcknowledgements();

            RunningWorker worker = start("w1", 4);

            await().atMost(WAIT).until(() -> worker.counters().completed() == 200);
            assertThat(transport.acknowledgedInFrontOfLeases()).as("acknowledged with the next lease").isPositive();
            assertThat(transport.stats(queue).pending()).isZero();
            assertThat(calls("orders")).hasValue(200);
        }
    }

    @Nested
    class WithShortJobs {
        @Test
        void theWorkerLeasesAheadYetRunsNoMoreAtOnceThanItsConcurrency() {
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
    }

    @ParameterizedTest
    @MethodSource("dev.baton.application.testing.JobThreadChoices#ofThisRuntime")
    void handlersRunOnTheConfiguredJobThreads(JobThreads choice) throws Exception {
        settings = settings.with(settings.dispatching().withJobThreads(choice));
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
        settings = settings.with(settings.retries().withRetryPolicy(new RetryPolicy(3,
                new Backoff.Fixed(Duration.ofSeconds(5)), Jitter.NONE, Set.of())));
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
        assertThat(ledger.find(queue, JobId.of("flaky"))).hasValueSatisfying(c -> assertThat(c.attempt()).isEqualTo(2));
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
        assertThat(ledger.find(queue, JobId.of("doomed"))).isEmpty();
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
    void theJobTypeSelectsTheHandlerUntypedJobsRunTheWorkersHandler() {
        handlers.put("email", counting("email"));
        handlers.put("default", counting("default"));
        RunningWorker worker = start(command(queue, "w1", 1, Optional.of("default")));

        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("typed"), "{}").withType("email"));
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("unknown-type"), "{}").withType("sms"));
        enqueue("untyped");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2 && isDelayed("unknown-type"));
        assertThat(calls("email")).hasValue(1);
        assertThat(calls("default")).as("a typed job never runs under the worker's handler").hasValue(1);
    }

    @Test
    void aJobWithoutAHandlerWaitsForOneAndTheWorkerGoesOn() {
        handlers.put("email", counting("email"));
        RunningWorker worker = start("w1", 1);

        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("waits"), "{}").withType("mystery"));
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("fine"), "{}").withType("email"));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1 && isDelayed("waits"));
        assertThat(calls("email")).hasValue(1);
        assertThat(((JobSighting.Delayed) transport.find(queue, JobId.of("waits")).orElseThrow()).job().attempt())
                .as("no attempt spent").isZero();
        assertThat(worker.counters().deadLettered()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aJobNoHandlerMatchesNamesWhatWasTried() {
        settings = settings.with(settings.admission().withNoHandlerGrace(Duration.ZERO));
        QueueName lonely = QueueName.of("nobody-home");
        RunningWorker worker = start(command(lonely, "w1", 1, Optional.empty()));

        enqueue.enqueue(EnqueueJobUseCase.Command.now(lonely, JobId.of("orphan"), "{}").withType("mystery"));

        await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1);
        StoredDeadLetter stored = transport.deadLetters(lonely, Optional.empty(), 10).get(0);
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.NO_HANDLER);
        assertThat(stored.letter().lastError().message()).isEqualTo("no handler named mystery on this worker (it has"
                + " none); waited 0s for a worker that has one");
    }

    @Test
    void aTypedJobNeverFallsBackToTheQueuesHandler() {
        settings = settings.with(settings.admission().withNoHandlerGrace(Duration.ZERO));
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
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.NO_HANDLER);
        assertThat(stored.letter().lastError().message()).startsWith("no handler named refund on this worker");
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
    void theSameIdOnTwoQueuesCommitsOnEachAndTwiceOnOneOnce() {
        QueueName emails = QueueName.of("emails");
        JobHandler effect = context -> {
            context.unwrap(InMemoryEffects.class).increment(context.job().queue() + "/" + context.job().id());
            return Optional.empty();
        };
        handlers.put("orders", effect);
        handlers.put("emails", effect);
        RecordingObserver observer = new RecordingObserver();
        RunningWorker worker = track(service(ledger, observer).start(new RunWorkerUseCase.Command(
                List.of(queue, emails), ConsumerName.of("w1"), 2, Optional.empty())));

        enqueue("order-1001");
        enqueue.enqueue(EnqueueJobUseCase.Command.now(emails, JobId.of("order-1001"), "{}"));
        enqueue("order-1001");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2 && worker.counters().duplicates() == 1);
        assertThat(ledger.committedEffects()).isEqualTo(Map.of("orders/order-1001", "1", "emails/order-1001", "1"));
        assertThat(observer.counts.keySet()).noneMatch(event -> event.startsWith("collision"));
    }

    @Test
    void aDuplicateOfAnotherTypeIsHeardAsAnIdCollision() {
        RecordingObserver observer = new RecordingObserver();
        handlers.put("ship", counting("ship"));
        handlers.put("mail", counting("mail"));
        for (String type : List.of("ship", "mail", "ship")) {
            enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("order-1001"), "{}").withType(type));
        }

        RunningWorker worker = track(service(ledger, observer).start(command(queue, "w1", 1, Optional.empty())));

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1 && worker.counters().duplicates() == 2);
        assertThat(observer.count("collision:mail<>ship")).isEqualTo(1);
        assertThat(observer.counts).hasSize(4).containsKeys("started", "completed", "duplicate");
        assertThat(ledger.find(queue, JobId.of("order-1001"))).hasValueSatisfying(completion ->
                assertThat(completion.type()).contains("ship"));
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
}
