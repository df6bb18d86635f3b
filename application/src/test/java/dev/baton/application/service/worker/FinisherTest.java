package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.WorkerCounters;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.JobThreads;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Backoff;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.Jitter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The finishing room on the in-memory transport: where each outcome leaves its entry. */
class FinisherTest {
    private static final QueueName QUEUE = Deliveries.QUEUE;
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MutableClock clock = MutableClock.at(Deliveries.NOW);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final ConsumerName worker = ConsumerName.of("w1");
    private final InFlight inFlight = new InFlight(4);
    private final CountingObserver counting = new CountingObserver(JobObserver.NONE, MaintenanceObserver.NONE);
    private final Acknowledgements<HandedOver> acknowledgements = new Acknowledgements<>(transport,
            new AcknowledgedHandOvers(inFlight, counting, worker),
            new WorkerThreads(JobThreads.PLATFORM, 1, "test").platform("ack"));
    private final Finisher finisher = new Finisher(transport, ledger, acknowledgements,
            new RetryPolicy(2, new Backoff.Fixed(Duration.ofSeconds(5)), Jitter.NONE, Set.of()), JOB_TIMEOUT, clock,
            () -> 0.5, counting, worker, new LedgerOutage(ledger, worker));

    @AfterEach
    void closeAcknowledgements() throws InterruptedException {
        acknowledgements.close(WAIT);
    }

    @Test
    void aCommittedAttemptIsAcknowledgedAndCountedOnlyThen() {
        RunOutcome attempt = attempt(leaseAndHold("shipped"), this::committed);

        assertThat(finisher.finish(List.of(attempt))).containsExactly(entry(attempt.held(), Ending.HANDED_OVER));

        await().atMost(WAIT).until(() -> transport.stats(QUEUE).pending() == 0);
        await().atMost(WAIT).until(() -> counting.counters(inFlight.size(), 0).equals(
                new WorkerCounters(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    }

    @Test
    void aFailedEffectIsRetriedAfterItsBackoffElseDeadLettered() {
        RunOutcome flaky = attempt(leaseAndHold("flaky"), job -> failed(new IOException("reset")));
        RunOutcome refused = attempt(leaseAndHold("refused"), job -> failed(new NonRetryableException("no")));

        assertThat(finisher.finish(List.of(flaky, refused))).as("none handed over").containsExactly(
                entry(flaky.held(), Ending.MOVED), entry(refused.held(), Ending.MOVED));

        assertThat(transport.find(QUEUE, JobId.of("flaky"))).hasValueSatisfying(sighting -> {
            Job retried = ((JobSighting.Delayed) sighting).job();
            assertThat(retried.currentAttempt()).isEqualTo(2);
            assertThat(retried.notBefore()).contains(clock.instant().plusSeconds(5));
        });
        DeadLetter letter = transport.deadLetters(QUEUE, Optional.empty(), 10).get(0).letter();
        assertThat(letter.reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
        assertThat(letter.attempts()).isEqualTo(1);
        assertThat(letter.trace()).hasValueSatisfying(trace -> assertThat(trace.text())
                .startsWith(NonRetryableException.class.getName() + ": no\n\tat ")
                .contains(FinisherTest.class.getName()));
        assertThat(transport.stats(QUEUE).pending()).isZero();
        assertThat(counting.counters(0, 0).retried()).isEqualTo(1);
        assertThat(counting.counters(0, 0).deadLettered()).isEqualTo(1);
    }

    @Test
    void anAttemptPastItsDeadlineFailsAsATimeoutWhateverItThrew() {
        HeldDelivery held = leaseAndHold("sleepy");
        held.startDeadline(System.nanoTime());
        new DeadlineLoop(inFlight).runOnce();

        finisher.finish(List.of(attempt(held, job -> failed(new IllegalStateException("interrupted")))));

        assertThat(transport.find(QUEUE, JobId.of("sleepy"))).hasValueSatisfying(sighting ->
                assertThat(((JobSighting.Delayed) sighting).job().lastError()).hasValueSatisfying(error ->
                        assertThat(error.type()).isEqualTo("timeout")));
    }

    @Test
    void anUnknownOutcomeStaysPendingWhileTheOthersOfItsBatchFinish() {
        RunOutcome committed = attempt(leaseAndHold("committed"), this::committed);
        RunOutcome unknown = attempt(leaseAndHold("unknown"), job -> new LedgerOutcome.Unknown(
                new LedgerUnavailableException("connection lost after COMMIT", null)));

        assertThat(finisher.finish(List.of(committed, unknown))).containsExactly(
                entry(committed.held(), Ending.HANDED_OVER), entry(unknown.held(), Ending.LEFT_PENDING));

        await().atMost(WAIT).until(() -> transport.stats(QUEUE).pending() == 1);
        assertThat(transport.find(QUEUE, JobId.of("unknown"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOf(JobSighting.Pending.class));
    }

    @Test
    void aDeliveryWhoseLeaseWasLostIsNeitherAcknowledgedNorRetried() {
        HeldDelivery committed = leaseAndHold("lost-committed");
        HeldDelivery failed = leaseAndHold("lost-failed");
        committed.loseLease();
        failed.loseLease();

        assertThat(finisher.finish(List.of(attempt(committed, this::committed),
                attempt(failed, job -> failed(new IOException("reset")))))).as("none handed over").containsExactly(
                entry(committed, Ending.NOT_OURS), entry(failed, Ending.NOT_OURS));

        assertThat(transport.stats(QUEUE).pending()).isEqualTo(2);
        assertThat(transport.stats(QUEUE).delayed()).isZero();
    }

    @Nested
    class WhenTriageSettlesADelivery {
        @Test
        void itIsDeadLetteredReleasedOrAcknowledgedWithoutRunning() {
            HeldDelivery poison = leaseAndHold("poison");
            HeldDelivery orphan = leaseAndHold("orphan");
            HeldDelivery done = leaseAndHold("done");
            Delivery.Leased doneDelivery = (Delivery.Leased) done.delivery();

            finisher.settle(new Triage.Refused(poison, DeadLetter.of(((Delivery.Leased) poison.delivery()).job(),
                    DeadLetterReason.POISON, JobError.permanent("poison", "too often"), 6,
                    clock.instant())));
            Job waiting = ((Delivery.Leased) orphan.delivery()).job().waitingForHandler(clock.instant(),
                    clock.instant().plusSeconds(1));
            finisher.settle(new Triage.Released(orphan, (Delivery.Leased) orphan.delivery(), waiting,
                    "no handler named x"));
            assertThat(finisher.settle(new Triage.Completed(done, doneDelivery, completion(doneDelivery.job()))))
                    .isEqualTo(Ending.HANDED_OVER);

            assertThat(transport.deadLetters(QUEUE, Optional.empty(), 10))
                    .extracting(stored -> stored.letter().reason()).containsExactly(DeadLetterReason.POISON);
            assertThat(transport.find(QUEUE, JobId.of("orphan"))).as("released, not run, not lost")
                    .contains(new JobSighting.Delayed(waiting, clock.instant().plusSeconds(1)));
            assertThat(transport.deadLetters(QUEUE, Optional.empty(), 10)).allSatisfy(stored ->
                    assertThat(stored.letter().trace()).as("nothing was thrown").isEmpty());
            await().atMost(WAIT).until(() -> transport.stats(QUEUE).pending() == 0
                    && counting.counters(0, 0).duplicates() == 1);
        }
    }

    @Nested
    class WhenAJobIsDeadLettered {
        @Test
        void itIsRecordedInTheLedgerAndThenMoved() {
            finisher.finish(List.of(attempt(leaseAndHold("refused"), job -> failed(new NonRetryableException("no")))));

            assertThat(ledger.find(QUEUE, "refused")).hasValueSatisfying(outcome -> assertThat(
                    ((JobOutcome.Dead) outcome).record().reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE));
            assertThat(transport.deadLetters(QUEUE, Optional.empty(), 10)).hasSize(1);
        }

        @Test
        void withTheLedgerDownNothingIsDeadLetteredTheEntryStaysPending() {
            HeldDelivery poison = leaseAndHold("poison");
            ledger.setUnavailable(true);

            finisher.finish(List.of(attempt(leaseAndHold("refused"), job -> failed(new NonRetryableException("no")))));
            assertThatThrownBy(() -> finisher.settle(new Triage.Refused(poison, poisonLetter(poison))))
                    .isInstanceOf(LedgerUnavailableException.class);

            assertThat(transport.deadLetters(QUEUE, Optional.empty(), 10)).isEmpty();
            assertThat(transport.stats(QUEUE).pending()).isEqualTo(2);
        }

        @Test
        void butTheLedgerSaysCompletedItIsAcknowledgedInstead() {
            HeldDelivery poison = leaseAndHold("shipped-then-crashed");
            Delivery.Leased delivery = (Delivery.Leased) poison.delivery();
            ledger.execute(new ExecutionLedger.Execution(delivery.job(), worker, delivery.id(), 1, clock.instant()
                    .plusSeconds(5)), transaction -> Optional.empty());

            finisher.settle(new Triage.Refused(poison, poisonLetter(poison)));

            assertThat(transport.deadLetters(QUEUE, Optional.empty(), 10)).isEmpty();
            assertThat(transport.stats(QUEUE).pending()).isZero();
            assertThat(ledger.find(QUEUE, "shipped-then-crashed")).hasValueSatisfying(outcome ->
                    assertThat(outcome).isInstanceOf(JobOutcome.Completed.class));
        }
    }

    @Nested
    class WhenTheLedgerSaysTheJobIsAlreadyDead {
        @Test
        void itIsAcknowledgedAndItsLostDeadLetterWrittenAgainOnce() {
            HeldDelivery first = leaseAndHold("dead-before");
            DeadLetterRecord record = new DeadLetterRecord("dead-before", QUEUE, DeadLetterReason.EXHAUSTED,
                    JobError.permanent("java.io.IOException", "reset"), 3, ConsumerName.of("w0"), "1-0",
                    clock.instant());
            JobOutcome dead = ledger.recordDead(record);
            HeldDelivery again = leaseAndHold("dead-before");

            finisher.finish(List.of(attempt(first, job -> new LedgerOutcome.AlreadyDead(dead))));
            finisher.finish(List.of(attempt(again, job -> new LedgerOutcome.AlreadyDead(dead))));

            assertThat(transport.deadLetters(QUEUE, Optional.empty(), 10)).singleElement().satisfies(stored -> {
                assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.EXHAUSTED);
                assertThat(stored.letter().attempts()).isEqualTo(3);
                assertThat(stored.letter().lastError().message()).isEqualTo("reset");
            });
            assertThat(transport.stats(QUEUE).pending()).isZero();
            assertThat(counting.counters(0, 0).deadLettered()).as("not dead-lettered anew").isZero();
        }

        @Test
        void ifPurgedItIsOnlyAcknowledged() {
            HeldDelivery held = leaseAndHold("purged");
            DeadLetterRecord record = new DeadLetterRecord("purged", QUEUE, DeadLetterReason.POISON,
                    JobError.permanent("poison", "too often"), 6, worker, "1-0", clock.instant());

            finisher.finish(List.of(attempt(held, job -> new LedgerOutcome.AlreadyDead(new JobOutcome.Purged(record,
                    clock.instant())))));

            assertThat(transport.deadLetters(QUEUE, Optional.empty(), 10)).isEmpty();
            assertThat(transport.stats(QUEUE).pending()).isZero();
        }
    }

    private DeadLetter poisonLetter(HeldDelivery held) {
        return DeadLetter.of(((Delivery.Leased) held.delivery()).job(), DeadLetterReason.POISON,
                JobError.permanent("poison", "too often"), 6, clock.instant());
    }

    private HeldDelivery leaseAndHold(String jobId) {
        transport.publish(Job.create(JobId.of(jobId), QUEUE, "{}", clock.instant()));
        return inFlight.hold(transport.lease(QUEUE, worker, 1, Duration.ZERO).deliveries().get(0)).orElseThrow();
    }

    private RunOutcome attempt(HeldDelivery held, Function<Job, LedgerOutcome> outcome) {
        Delivery.Leased delivery = (Delivery.Leased) held.delivery();
        return new RunOutcome(held, delivery, outcome.apply(delivery.job()), Duration.ofMillis(3),
                JobTracing.AttemptTrace.NONE);
    }

    private LedgerOutcome committed(Job job) {
        return new LedgerOutcome.Committed(completion(job));
    }

    private Completion completion(Job job) {
        return new Completion(job.id(), job.queue(), job.type(), job.currentAttempt(), worker, "1-0", Optional.empty(),
                clock.instant());
    }

    private static LedgerOutcome failed(Exception cause) {
        return new LedgerOutcome.EffectFailed(cause);
    }
}
