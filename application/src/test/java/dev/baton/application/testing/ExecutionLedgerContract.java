package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guarantees every {@link ExecutionLedger} gives, as tests. An adapter test extends this class, creates the
 * ledger on the given clock, and shows how an effect writes in the ledger's transaction. Job ids and queue names are
 * random per test, so the suite can share a database.
 */
public abstract class ExecutionLedgerContract {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00.123Z");
    private static final ConsumerName CONSUMER = ConsumerName.of("worker-1");

    private final MutableClock clock = MutableClock.at(T0);
    private final QueueName queue = QueueName.of("ledger-" + UUID.randomUUID().toString().substring(0, 13));
    private final QueueName otherQueue = QueueName.of("ledger-" + UUID.randomUUID().toString().substring(0, 13));
    private ExecutionLedger ledger;
    private ExecutorService executor;

    /** A ledger that stamps completions with {@code clock}. Called once per test. */
    protected abstract ExecutionLedger createLedger(Clock clock);

    /** Writes {@code marker} through {@code transaction}, as a handler's effect would (e.g. a row via the Handle). */
    protected abstract void recordEffect(LedgerTransaction transaction, String marker);

    /** True when a committed effect wrote {@code marker}. */
    protected abstract boolean effectRecorded(String marker);

    @BeforeEach
    void createLedger() {
        ledger = createLedger(clock);
    }

    @AfterEach
    void stopExecutor() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    @Test
    void commitsTheEffectTogetherWithTheCompletion() {
        Job job = job().withType("invoice");
        String marker = marker();

        LedgerOutcome outcome = ledger.execute(execution(job, "1700000000000-0"), transaction -> {
            recordEffect(transaction, marker);
            return Optional.of("sent");
        });

        Completion expected = new Completion(job.id(), queue, Optional.of("invoice"), 1, CONSUMER,
                "1700000000000-0", Optional.of("sent"), T0);
        assertThat(outcome).isEqualTo(new LedgerOutcome.Committed(expected));
        assertThat(ledger.find(queue, job.id())).contains(expected);
        assertThat(effectRecorded(marker)).isTrue();
    }

    @Nested
    class WhenTheJobCompletedBefore {
        @Test
        void aRedeliveryIsReportedAndItsEffectDoesNotRunAgain() {
            Job job = job();
            AtomicInteger runs = new AtomicInteger();
            LedgerOutcome first = ledger.execute(execution(job, "1-0"), counting(runs));
            clock.advance(Duration.ofMinutes(5));

            LedgerOutcome second = ledger.execute(redelivery(job.retriedAfter(
                    JobError.retryable("x", "y"), T0), "2-0"), counting(runs));

            assertThat(second).isEqualTo(new LedgerOutcome.AlreadyCompleted(completionOf(first)));
            assertThat(runs).hasValue(1);
        }

        @ParameterizedTest(name = "its effect fails: {0}")
        @ValueSource(booleans = {false, true})
        void aFirstDeliveryIsReportedAndItsWritesRollBack(boolean effectFails) {
            Job job = job();
            LedgerOutcome first = ledger.execute(execution(job, "1-0"), transaction -> Optional.empty());
            String marker = marker();

            // published again: the handler may run, on a unique key of its own it may fail; nothing of it commits
            LedgerOutcome published = ledger.execute(execution(job, "2-0"), transaction -> {
                recordEffect(transaction, marker);
                if (effectFails) {
                    throw new IOException("duplicate key on the handler's own table");
                }
                return Optional.of("again");
            });

            assertThat(published).isEqualTo(new LedgerOutcome.AlreadyCompleted(completionOf(first)));
            assertThat(effectRecorded(marker)).isFalse();
            assertThat(ledger.find(queue, job.id())).contains(completionOf(first));
        }
    }

    @Test
    void aFirstDeliveryLosesToARedeliveryCommittingWhileItsEffectRuns() throws Exception {
        Job job = job();
        String stalledMarker = marker();
        String takenOverMarker = marker();
        CountDownLatch stalledInside = new CountDownLatch(1);
        CountDownLatch releaseStalled = new CountDownLatch(1);
        executor = Executors.newFixedThreadPool(2);
        Future<LedgerOutcome> stalled = executor.submit(() -> ledger.execute(execution(job, "1-0"), transaction -> {
            recordEffect(transaction, stalledMarker);
            stalledInside.countDown();
            releaseStalled.await();
            return Optional.of("stalled");
        }));
        assertThat(stalledInside.await(10, TimeUnit.SECONDS)).isTrue();

        // taken over while the first delivery's effect still runs: it holds no claim, so nothing waits for it
        LedgerOutcome takenOver = executor.submit(() -> ledger.execute(redelivery(job, "1-0"), transaction -> {
            recordEffect(transaction, takenOverMarker);
            return Optional.of("taken over");
        })).get(10, TimeUnit.SECONDS);
        releaseStalled.countDown();

        assertThat(takenOver).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(stalled.get(10, TimeUnit.SECONDS))
                .isEqualTo(new LedgerOutcome.AlreadyCompleted(completionOf(takenOver)));
        assertThat(effectRecorded(takenOverMarker)).isTrue();
        assertThat(effectRecorded(stalledMarker)).isFalse();
    }

    @Test
    void aFailedEffectRollsBackAndLeavesNoCompletion() {
        Job job = job();
        String marker = marker();
        IOException failure = new IOException("disk full");

        assertThat(ledger.execute(execution(job, "1-0"), transaction -> {
            recordEffect(transaction, marker);
            throw failure;
        })).isEqualTo(new LedgerOutcome.EffectFailed(failure));

        assertThat(ledger.find(queue, job.id())).isEmpty();
        assertThat(effectRecorded(marker)).isFalse();
        assertThat(ledger.countCompleted(queue)).isZero();

        LedgerOutcome retried = ledger.execute(execution(job, "2-0"), transaction -> {
            recordEffect(transaction, marker);
            return Optional.empty();
        });
        assertThat(retried).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(effectRecorded(marker)).isTrue();
    }

    @Test
    void aNonRetryableFailureKeepsItsCause() {
        NonRetryableException failure = new NonRetryableException("unknown customer");

        assertThat(ledger.execute(execution(job(), "1-0"), transaction -> {
            throw failure;
        })).isEqualTo(new LedgerOutcome.EffectFailed(failure));
    }

    @Test
    void unwrappingAnUnsupportedTypeNamesTheSupportedOnes() {
        AtomicInteger checked = new AtomicInteger();

        ledger.execute(execution(job(), "1-0"), transaction -> {
            assertThatThrownBy(() -> transaction.unwrap(Thread.class))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageNotContaining("null");
            checked.incrementAndGet();
            return Optional.empty();
        });

        assertThat(checked).hasValue(1);
    }

    @Test
    void aSecondCallerWaitsForTheFirstAndThenSkips() throws Exception {
        Job job = job();
        CountDownLatch firstInside = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        executor = Executors.newFixedThreadPool(2);

        Future<LedgerOutcome> first = executor.submit(() -> ledger.execute(redelivery(job, "1-0"), transaction -> {
            runs.incrementAndGet();
            firstInside.countDown();
            releaseFirst.await();
            return Optional.empty();
        }));
        assertThat(firstInside.await(10, TimeUnit.SECONDS)).isTrue();
        Future<LedgerOutcome> second = executor.submit(() -> ledger.execute(redelivery(job, "2-0"), counting(runs)));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !second.isDone());
        releaseFirst.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(second.get(10, TimeUnit.SECONDS)).isInstanceOf(LedgerOutcome.AlreadyCompleted.class);
        assertThat(runs).hasValue(1);
    }

    @Test
    void aSecondCallerRunsTheEffectWhenTheFirstRollsBack() throws Exception {
        Job job = job();
        String marker = marker();
        CountDownLatch firstInside = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        executor = Executors.newFixedThreadPool(2);

        Future<LedgerOutcome> first = executor.submit(() -> ledger.execute(redelivery(job, "1-0"), transaction -> {
            firstInside.countDown();
            releaseFirst.await();
            throw new IOException("first attempt fails");
        }));
        assertThat(firstInside.await(10, TimeUnit.SECONDS)).isTrue();
        Future<LedgerOutcome> second = executor.submit(() -> ledger.execute(redelivery(job, "2-0"), transaction -> {
            recordEffect(transaction, marker);
            return Optional.of("second");
        }));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !second.isDone());
        releaseFirst.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isInstanceOf(LedgerOutcome.EffectFailed.class);
        assertThat(second.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(LedgerOutcome.Committed.class,
                committed -> assertThat(committed.completion().messageId()).isEqualTo("2-0"));
        assertThat(effectRecorded(marker)).isTrue();
    }

    @ParameterizedTest(name = "delivery count {0}")
    @ValueSource(longs = {1, 2})
    void manyThreadsRacingOnOneJobCommitExactlyOnce(long deliveryCount) throws Exception {
        Job job = job();
        int racers = 8;
        AtomicInteger runs = new AtomicInteger();
        List<String> markers = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        executor = Executors.newFixedThreadPool(racers);
        List<Future<LedgerOutcome>> outcomes = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            ExecutionLedger.Execution execution = new ExecutionLedger.Execution(job, CONSUMER,
                    new DeliveryId((i + 1) + "-0"), deliveryCount, T0.plusSeconds(60));
            String marker = marker();
            markers.add(marker);
            outcomes.add(executor.submit(() -> {
                start.await();
                return ledger.execute(execution, transaction -> {
                    runs.incrementAndGet();
                    recordEffect(transaction, marker);
                    return Optional.empty();
                });
            }));
        }
        start.countDown();

        List<LedgerOutcome> results = new ArrayList<>();
        for (Future<LedgerOutcome> outcome : outcomes) {
            results.add(outcome.get(30, TimeUnit.SECONDS));
        }
        assertThat(results).filteredOn(LedgerOutcome.Committed.class::isInstance).hasSize(1);
        assertThat(results).filteredOn(LedgerOutcome.AlreadyCompleted.class::isInstance).hasSize(racers - 1);
        assertThat(results).extracting(ExecutionLedgerContract::completionOf)
                .containsOnly(completionOf(results.get(0)));
        assertThat(markers).filteredOn(this::effectRecorded).hasSize(1);
        if (deliveryCount > 1) {
            assertThat(runs).as("a redelivery's effect waits for the claim").hasValue(1);
        }
    }

    @Test
    void aBatchCommitsEachJobAndReportsOutcomesInOrder() {
        Job done = job();
        ledger.execute(execution(done, "1-0"), transaction -> Optional.empty());
        Job failing = job();
        Job fine = job();
        String failedMarker = marker();
        String fineMarker = marker();
        IOException failure = new IOException("carrier down");
        AtomicInteger runs = new AtomicInteger();

        List<LedgerOutcome> outcomes = ledger.executeAll(List.of(
                new ExecutionLedger.Step(execution(failing, "2-0"), transaction -> {
                    recordEffect(transaction, failedMarker);
                    throw failure;
                }),
                new ExecutionLedger.Step(redelivery(done, "3-0"), counting(runs)),
                new ExecutionLedger.Step(execution(fine, "4-0"), transaction -> {
                    recordEffect(transaction, fineMarker);
                    return Optional.of("fine");
                })));

        assertThat(outcomes).hasSize(3);
        assertThat(outcomes.get(0)).isEqualTo(new LedgerOutcome.EffectFailed(failure));
        assertThat(outcomes.get(1)).isEqualTo(
                new LedgerOutcome.AlreadyCompleted(ledger.find(queue, done.id()).orElseThrow()));
        Completion fineCompletion = new Completion(fine.id(), queue, Optional.empty(), 1, CONSUMER, "4-0",
                Optional.of("fine"), T0);
        assertThat(outcomes.get(2)).isEqualTo(new LedgerOutcome.Committed(fineCompletion));
        assertThat(runs).hasValue(0);
        assertThat(effectRecorded(fineMarker)).isTrue();
        assertThat(effectRecorded(failedMarker)).isFalse();
        assertThat(ledger.find(queue, failing.id())).isEmpty();
        assertThat(ledger.find(queue, fine.id())).contains(fineCompletion);
    }

    @Test
    void aJobTwiceInOneBatchRunsOnce() {
        Job job = job();
        AtomicInteger runs = new AtomicInteger();

        List<LedgerOutcome> outcomes = ledger.executeAll(List.of(
                new ExecutionLedger.Step(execution(job, "1-0"), counting(runs)),
                new ExecutionLedger.Step(redelivery(job, "2-0"), counting(runs))));

        assertThat(outcomes).extracting(outcome -> outcome.getClass().getSimpleName())
                .containsExactly("Committed", "AlreadyCompleted");
        assertThat(runs).hasValue(1);
        assertThat(ledger.countCompleted(queue)).isEqualTo(1);
    }

    @Test
    void anEmptyBatchDoesNothing() {
        assertThat(ledger.executeAll(List.of())).isEmpty();
    }

    @Test
    void batchesOverlappingInOppositeOrderEachCommitEveryJobOnce() throws Exception {
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            jobs.add(job());
        }
        List<Job> reversed = new ArrayList<>(jobs);
        Collections.reverse(reversed);
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        executor = Executors.newFixedThreadPool(2);
        List<Future<List<LedgerOutcome>>> batches = new ArrayList<>();
        for (List<Job> order : List.of(jobs, reversed)) {
            batches.add(executor.submit(() -> {
                start.await();
                return ledger.executeAll(order.stream()
                        .map(job -> new ExecutionLedger.Step(redelivery(job, "1-0"), counting(runs))).toList());
            }));
        }
        start.countDown();

        List<LedgerOutcome> all = new ArrayList<>();
        for (Future<List<LedgerOutcome>> batch : batches) {
            all.addAll(batch.get(30, TimeUnit.SECONDS));
        }
        assertThat(all).allSatisfy(outcome -> assertThat(outcome).isInstanceOfAny(LedgerOutcome.Committed.class,
                LedgerOutcome.AlreadyCompleted.class));
        assertThat(all).filteredOn(outcome -> outcome instanceof LedgerOutcome.Committed).hasSize(jobs.size());
        assertThat(runs).hasValue(jobs.size());
        assertThat(ledger.countCompleted(queue)).isEqualTo(jobs.size());
    }

    @Test
    void findKnowsOnlyCompletedJobs() {
        Job done = job();
        ledger.execute(execution(done, "1-0"), transaction -> Optional.empty());

        assertThat(ledger.find(queue, done.id())).hasValueSatisfying(c -> assertThat(c.jobId()).isEqualTo(done.id()));
        assertThat(ledger.find(queue, JobId.of("never-" + UUID.randomUUID()))).isEmpty();
    }

    @Test
    void countsCompletionsPerQueue() {
        QueueName other = QueueName.of("ledger-" + UUID.randomUUID().toString().substring(0, 13));
        for (int i = 0; i < 3; i++) {
            ledger.execute(execution(job(), i + "-0"), transaction -> Optional.empty());
        }
        ledger.execute(execution(Job.create(JobId.of(UUID.randomUUID().toString()), other, "{}", T0), "9-0"),
                transaction -> Optional.empty());

        assertThat(ledger.countCompleted(queue)).isEqualTo(3);
        assertThat(ledger.countCompleted(other)).isEqualTo(1);
    }

    @Test
    void forgetCompletedBeforeDeletesOnlyOlderCompletions() {
        clock.set(Instant.parse("2001-01-01T00:00:00Z"));
        Job old = job();
        ledger.execute(execution(old, "1-0"), transaction -> Optional.empty());
        clock.advance(Duration.ofHours(1));
        Job recent = job();
        ledger.execute(execution(recent, "2-0"), transaction -> Optional.empty());

        long forgotten = ledger.forgetCompletedBefore(Instant.parse("2001-01-01T00:30:00Z"));

        assertThat(forgotten).isGreaterThanOrEqualTo(1);
        assertThat(ledger.find(queue, old.id())).isEmpty();
        assertThat(ledger.find(queue, recent.id())).isPresent();
        assertThat(ledger.countCompleted(queue)).isEqualTo(1);
    }

    @Test
    void theSameIdOnAnotherQueueIsAnotherJobThatRunsOnce() {
        Job shipped = job();
        Job mailed = Job.create(shipped.id(), otherQueue, "{}", T0);
        String marker = marker();
        ledger.execute(execution(shipped, "1-0"), transaction -> Optional.of("shipped"));

        LedgerOutcome first = ledger.execute(execution(mailed, "1-0"), transaction -> {
            recordEffect(transaction, marker);
            return Optional.of("mailed");
        });
        LedgerOutcome again = ledger.execute(execution(mailed, "2-0"), transaction -> Optional.of("twice"));

        Completion mail = new Completion(shipped.id(), otherQueue, Optional.empty(), 1, CONSUMER, "1-0",
                Optional.of("mailed"), T0);
        assertThat(first).isEqualTo(new LedgerOutcome.Committed(mail));
        assertThat(again).isEqualTo(new LedgerOutcome.AlreadyCompleted(mail));
        assertThat(effectRecorded(marker)).isTrue();
        assertThat(ledger.find(otherQueue, shipped.id())).contains(mail);
        assertThat(ledger.find(queue, shipped.id())).hasValueSatisfying(completion ->
                assertThat(completion.result()).contains("shipped"));
        assertThat(ledger.countCompleted(queue)).isEqualTo(1);
        assertThat(ledger.countCompleted(otherQueue)).isEqualTo(1);
    }

    @Test
    void aRedeliveryClaimsOnlyTheJobOfItsOwnQueue() {
        Job shipped = job();
        ledger.execute(execution(shipped, "1-0"), transaction -> Optional.empty());
        AtomicInteger runs = new AtomicInteger();

        LedgerOutcome mailed = ledger.execute(redelivery(Job.create(shipped.id(), otherQueue, "{}", T0), "7-0"),
                counting(runs));

        assertThat(mailed).isInstanceOfSatisfying(LedgerOutcome.Committed.class, committed ->
                assertThat(committed.completion().queue()).isEqualTo(otherQueue));
        assertThat(runs).hasValue(1);
    }

    @ParameterizedTest(name = "delivery count {0}")
    @ValueSource(longs = {1, 2})
    void aBatchWithOneIdOnTwoQueuesCommitsEachWithItsResult(long deliveryCount) {
        Job shipped = job();
        Job mailed = Job.create(shipped.id(), otherQueue, "{}", T0);

        List<LedgerOutcome> outcomes = ledger.executeAll(List.of(
                new ExecutionLedger.Step(delivered(shipped, deliveryCount), transaction -> Optional.of("shipped")),
                new ExecutionLedger.Step(delivered(mailed, deliveryCount), transaction -> Optional.of("mailed"))));

        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class));
        assertThat(ledger.find(queue, shipped.id())).hasValueSatisfying(completion ->
                assertThat(completion.result()).contains("shipped"));
        assertThat(ledger.find(otherQueue, shipped.id())).hasValueSatisfying(completion ->
                assertThat(completion.result()).contains("mailed"));
    }

    @Test
    void forgettingOldCompletionsKeepsTheSameIdOnAnotherQueue() {
        clock.set(Instant.parse("2001-01-01T00:00:00Z"));
        Job old = job();
        ledger.execute(execution(old, "1-0"), transaction -> Optional.empty());
        clock.advance(Duration.ofHours(1));
        ledger.execute(execution(Job.create(old.id(), otherQueue, "{}", T0), "2-0"), transaction -> Optional.empty());

        ledger.forgetCompletedBefore(Instant.parse("2001-01-01T00:30:00Z"));

        assertThat(ledger.find(queue, old.id())).isEmpty();
        assertThat(ledger.find(otherQueue, old.id())).isPresent();
    }

    private Job job() {
        return Job.create(JobId.of("job-" + UUID.randomUUID()), queue, "{\"n\":1}", T0);
    }

    /** The first delivery of a stream entry. */
    private static ExecutionLedger.Execution execution(Job job, String deliveryId) {
        return new ExecutionLedger.Execution(job, CONSUMER, new DeliveryId(deliveryId), 1, T0.plusSeconds(60));
    }

    /** A stream entry delivered before (reclaimed from a worker that stalled or died). */
    private static ExecutionLedger.Execution redelivery(Job job, String deliveryId) {
        return new ExecutionLedger.Execution(job, CONSUMER, new DeliveryId(deliveryId), 2, T0.plusSeconds(60));
    }

    /** A delivery of a stream entry, the first or a later one. */
    private static ExecutionLedger.Execution delivered(Job job, long deliveryCount) {
        return new ExecutionLedger.Execution(job, CONSUMER, new DeliveryId(deliveryCount + "-0"), deliveryCount,
                T0.plusSeconds(60));
    }

    private static String marker() {
        return "marker-" + UUID.randomUUID();
    }

    private static ExecutionLedger.Effect counting(AtomicInteger runs) {
        return transaction -> {
            runs.incrementAndGet();
            return Optional.empty();
        };
    }

    /** The completion a recorded outcome carries. */
    public static Completion completionOf(LedgerOutcome outcome) {
        if (outcome instanceof LedgerOutcome.Committed committed) {
            return committed.completion();
        }
        return ((LedgerOutcome.AlreadyCompleted) outcome).completion();
    }
}
