package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.application.testing.InMemoryEffects;
import dev.baton.domain.Backoff;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Jitter;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The worker's deadlines and batched commits on the in-memory adapters: what times out, and what commits together. */
class WorkerDeadlinesAndBatchesTest extends WorkerFixture {
    @Nested
    class WhenAnAttemptPassesItsTimeout {
        @Test
        void itIsInterruptedRolledBackAndCountsAsAFailure() {
            settings = settings.with(new Retries(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO), Jitter.NONE,
                    Set.of()), Duration.ofMillis(100)));
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
        void aConnectionLostToTheInterruptIsATimeoutRetriedNotAnOutage() {
            settings = settings.with(new Retries(new RetryPolicy(2, new Backoff.Fixed(Duration.ZERO), Jitter.NONE,
                    Set.of()), Duration.ofMillis(100)));
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
            assertThat(ledger.find(queue, JobId.of("stuck")))
                    .hasValueSatisfying(c -> assertThat(c.attempt()).isEqualTo(2));
        }
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
        settings = settings.with(new Retries(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO), Jitter.NONE,
                Set.of()), Duration.ofMillis(50)));
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
        settings = settings.with(settings.dispatching().withBatchCommit(4));
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
        assertThat(ledger.find(queue, JobId.of("b-2"))).hasValueSatisfying(c -> assertThat(c.attempt()).isEqualTo(2));
    }

    @Test
    void aBatchTakesOnlyItsShareOfTheConcurrencySoOthersGetJobsToo() {
        settings = settings.with(settings.dispatching().withBatchCommit(8));
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
        settings = settings.with(settings.dispatching().withBatchCommit(2))
                .with(new Retries(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of()),
                        Duration.ofMillis(100)));
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
}
