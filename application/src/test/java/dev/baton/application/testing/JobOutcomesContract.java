package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeCursor;
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.OutcomeState;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The guarantees every ledger's record of terminal outcomes gives, as tests: a job is completed or dead, never both,
 * whichever order the worker and the operator act in. An adapter test extends this class and creates the execution
 * ledger and the {@link JobOutcomes} over one store. Job ids and queue names are random per test.
 */
public abstract class JobOutcomesContract {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00.123Z");
    private static final ConsumerName CONSUMER = ConsumerName.of("worker-1");

    private final MutableClock clock = MutableClock.at(T0);
    private final QueueName queue = QueueName.of("outcomes-" + UUID.randomUUID().toString().substring(0, 13));
    private final QueueName otherQueue = QueueName.of("outcomes-" + UUID.randomUUID().toString().substring(0, 13));
    private ExecutionLedger ledger;
    private JobOutcomes outcomes;

    /** An execution ledger that stamps completions with {@code clock}. Called once per test, first. */
    protected abstract ExecutionLedger createLedger(Clock clock);

    /** The record of terminal outcomes in the same store as the ledger just created. */
    protected abstract JobOutcomes createOutcomes();

    @BeforeEach
    void create() {
        ledger = createLedger(clock);
        outcomes = createOutcomes();
    }

    @Test
    void aDeadLetterIsRecordedFoundAndCountedByReason() {
        DeadLetterRecord exhausted = dead(job(), DeadLetterReason.EXHAUSTED);
        DeadLetterRecord poison = dead(job(), DeadLetterReason.POISON);

        assertThat(outcomes.recordDead(exhausted)).isEqualTo(new JobOutcome.Dead(exhausted));
        assertThat(outcomes.recordDead(poison)).isEqualTo(new JobOutcome.Dead(poison));

        assertThat(outcomes.find(queue, exhausted.key())).contains(new JobOutcome.Dead(exhausted));
        assertThat(outcomes.countDead(queue)).isEqualTo(Map.of(DeadLetterReason.EXHAUSTED, 1L,
                DeadLetterReason.POISON, 1L));
        assertThat(outcomes.countDead(QueueName.of("elsewhere-" + UUID.randomUUID()))).isEmpty();
        assertThat(ledger.find(queue, JobId.of(exhausted.key()))).isEmpty();
    }

    @Test
    void aCompletedJobIsNeverDeadLetteredTheCompletionIsTheAnswer() {
        Job job = job();
        LedgerOutcome committed = ledger.execute(execution(job, 1), transaction -> Optional.of("shipped"));

        JobOutcome recorded = outcomes.recordDead(dead(job, DeadLetterReason.POISON));

        assertThat(recorded).isEqualTo(new JobOutcome.Completed(ExecutionLedgerContract.completionOf(committed)));
        assertThat(outcomes.find(queue, job.id().value())).contains(recorded);
        assertThat(outcomes.countDead(queue)).isEmpty();
    }

    @Test
    void aJobDeadAlreadyKeepsItsFirstRecord() {
        Job job = job();
        DeadLetterRecord first = dead(job, DeadLetterReason.EXHAUSTED);
        outcomes.recordDead(first);

        JobOutcome again = outcomes.recordDead(dead(job, DeadLetterReason.POISON));

        assertThat(again).isEqualTo(new JobOutcome.Dead(first));
        assertThat(outcomes.countDead(queue)).isEqualTo(Map.of(DeadLetterReason.EXHAUSTED, 1L));
    }

    @Test
    void aDeadJobDoesNotRunAgainOnAFirstDeliveryARedeliveryOrInABatch() {
        Job job = job();
        DeadLetterRecord record = dead(job, DeadLetterReason.NON_RETRYABLE);
        outcomes.recordDead(record);
        Job fresh = job();
        AtomicInteger committedRuns = new AtomicInteger();

        LedgerOutcome first = ledger.execute(execution(job, 1), transaction -> Optional.empty());
        LedgerOutcome redelivered = ledger.execute(execution(job, 2), counting(committedRuns));
        List<LedgerOutcome> batch = ledger.executeAll(List.of(
                new ExecutionLedger.Step(execution(job, 3), counting(committedRuns)),
                new ExecutionLedger.Step(execution(fresh, 1), transaction -> Optional.empty())));

        LedgerOutcome dead = new LedgerOutcome.AlreadyDead(new JobOutcome.Dead(record));
        assertThat(first).isEqualTo(dead);
        assertThat(redelivered).isEqualTo(dead);
        assertThat(committedRuns).hasValue(0);
        assertThat(batch.get(0)).isEqualTo(dead);
        assertThat(batch.get(1)).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(outcomes.find(queue, job.id().value())).contains(new JobOutcome.Dead(record));
    }

    @Nested
    class WhenADeadJobIsReplayed {
        @Test
        void itCompletesOnItsFirstDeliveryAndReplayingAgainChangesNothing() {
            Job job = job();
            DeadLetterRecord record = dead(job, DeadLetterReason.EXHAUSTED);
            outcomes.recordDead(record);
            Instant replayedAt = T0.plusSeconds(30);

            assertThat(outcomes.recordReplayed(queue, List.of(job.id().value()), replayedAt)).isEqualTo(1);
            assertThat(outcomes.recordReplayed(queue, List.of(job.id().value()), replayedAt.plusSeconds(1))).isZero();
            assertThat(outcomes.find(queue, job.id().value())).contains(new JobOutcome.Replayed(record, replayedAt));
            assertThat(outcomes.countDead(queue)).isEmpty();

            clock.advance(Duration.ofMinutes(1));
            AtomicInteger runs = new AtomicInteger();
            LedgerOutcome outcome = ledger.execute(execution(job.redriven(), 1), transaction -> {
                runs.incrementAndGet();
                return Optional.of("ok");
            });

            assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class);
            assertThat(runs).as("a replayed job runs once").hasValue(1);
            assertThat(ledger.find(queue, job.id())).hasValueSatisfying(c -> assertThat(c.result()).contains("ok"));
            assertThat(outcomes.recordReplayed(queue, List.of(job.id().value()), replayedAt.plusSeconds(90))).isZero();
            assertThat(outcomes.find(queue, job.id().value())).hasValueSatisfying(found ->
                    assertThat(found).isInstanceOf(JobOutcome.Completed.class));
            assertThat(ledger.countCompleted(queue)).isEqualTo(1);
        }

        @Test
        void itRunsOnARedeliveryToo() {
            Job job = job();
            outcomes.recordDead(dead(job, DeadLetterReason.POISON));
            outcomes.recordReplayed(queue, List.of(job.id().value()), T0);

            LedgerOutcome outcome = ledger.execute(execution(job.redriven(), 2), transaction -> Optional.empty());

            assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class);
            assertThat(ledger.find(queue, job.id())).isPresent();
        }

        @Test
        void ifItFailsForGoodAgainItIsDeadAnew() {
            Job job = job();
            outcomes.recordDead(dead(job, DeadLetterReason.POISON));
            outcomes.recordReplayed(queue, List.of(job.id().value()), T0);
            DeadLetterRecord second = dead(job, DeadLetterReason.EXHAUSTED);

            assertThat(outcomes.recordDead(second)).isEqualTo(new JobOutcome.Dead(second));
            assertThat(outcomes.countDead(queue)).isEqualTo(Map.of(DeadLetterReason.EXHAUSTED, 1L));
        }

        @Test
        void itCanBeCancelledAndThenDoesNotRun() {
            Job job = job();
            outcomes.recordDead(dead(job, DeadLetterReason.POISON));
            outcomes.recordReplayed(queue, List.of(job.id().value()), T0);

            JobOutcome recorded = outcomes.recordCancelled(job.id().value(), queue, T0.plusSeconds(2));

            assertThat(recorded).isEqualTo(new JobOutcome.Cancelled(job.id().value(), queue, T0.plusSeconds(2)));
            assertThat(ledger.execute(execution(job.redriven(), 1), transaction -> Optional.empty()))
                    .isInstanceOf(LedgerOutcome.AlreadyCancelled.class);
        }
    }

    @Test
    void aPurgedJobNeverRunsAgainAndIsForgottenUnlikeADeadOne() {
        Job purged = job();
        Job stillDead = job();
        DeadLetterRecord record = dead(purged, DeadLetterReason.EXHAUSTED);
        outcomes.recordDead(record);
        outcomes.recordDead(dead(stillDead, DeadLetterReason.EXHAUSTED));
        Instant purgedAt = T0.plusSeconds(10);

        assertThat(outcomes.recordPurged(queue, List.of(purged.id().value(), "never-" + UUID.randomUUID()), purgedAt))
                .isEqualTo(1);
        assertThat(outcomes.find(queue, purged.id().value())).contains(new JobOutcome.Purged(record, purgedAt));
        assertThat(ledger.execute(execution(purged, 1), transaction -> Optional.empty()))
                .isEqualTo(new LedgerOutcome.AlreadyDead(new JobOutcome.Purged(record, purgedAt)));
        assertThat(outcomes.recordDead(dead(purged, DeadLetterReason.POISON)))
                .isEqualTo(new JobOutcome.Purged(record, purgedAt));

        ledger.forgetCompletedBefore(purgedAt.plusSeconds(1));

        assertThat(outcomes.find(queue, purged.id().value())).isEmpty();
        assertThat(outcomes.find(queue, stillDead.id().value())).hasValueSatisfying(found ->
                assertThat(found).isInstanceOf(JobOutcome.Dead.class));
    }

    @Nested
    class WhenAJobIsCancelled {
        @Test
        void itNeverRunsOnAnyDeliveryAndIsForgottenAfterTheRetention() {
            Job job = job();
            Instant cancelledAt = T0.plusSeconds(5);
            AtomicInteger committedRuns = new AtomicInteger();

            JobOutcome recorded = outcomes.recordCancelled(job.id().value(), queue, cancelledAt);
            LedgerOutcome first = ledger.execute(execution(job, 1), transaction -> Optional.of("shipped"));
            LedgerOutcome redelivered = ledger.execute(execution(job, 2), counting(committedRuns));

            JobOutcome.Cancelled cancelled = new JobOutcome.Cancelled(job.id().value(), queue, cancelledAt);
            assertThat(recorded).isEqualTo(cancelled);
            assertThat(first).isEqualTo(new LedgerOutcome.AlreadyCancelled(cancelled));
            assertThat(redelivered).isEqualTo(new LedgerOutcome.AlreadyCancelled(cancelled));
            assertThat(committedRuns).hasValue(0);
            assertThat(ledger.find(queue, job.id())).isEmpty();
            assertThat(outcomes.recordCancelled(job.id().value(), queue, cancelledAt.plusSeconds(1)))
                    .as("a second cancel is told the first").isEqualTo(cancelled);
            assertThat(outcomes.recordDead(dead(job, DeadLetterReason.POISON))).isEqualTo(cancelled);

            ledger.forgetCompletedBefore(cancelledAt.plusSeconds(1));

            assertThat(outcomes.find(queue, job.id().value())).isEmpty();
        }

        @Test
        void tooLateItIsToldTheCompletionOrThatTheJobIsDeadOrPurged() {
            Job completed = job();
            Job dead = job();
            Job purged = job();
            LedgerOutcome committed = ledger.execute(execution(completed, 1), transaction -> Optional.of("shipped"));
            DeadLetterRecord deadRecord = dead(dead, DeadLetterReason.EXHAUSTED);
            outcomes.recordDead(deadRecord);
            DeadLetterRecord purgedRecord = dead(purged, DeadLetterReason.EXHAUSTED);
            outcomes.recordDead(purgedRecord);
            outcomes.recordPurged(queue, List.of(purged.id().value()), T0);

            assertThat(outcomes.recordCancelled(completed.id().value(), queue, T0.plusSeconds(1)))
                    .isEqualTo(new JobOutcome.Completed(ExecutionLedgerContract.completionOf(committed)));
            assertThat(outcomes.recordCancelled(dead.id().value(), queue, T0.plusSeconds(1)))
                    .isEqualTo(new JobOutcome.Dead(deadRecord));
            assertThat(outcomes.recordCancelled(purged.id().value(), queue, T0.plusSeconds(1)))
                    .isEqualTo(new JobOutcome.Purged(purgedRecord, T0));
            assertThat(ledger.find(queue, completed.id())).isPresent();
        }
    }

    @Test
    void aMalformedEntryWithoutAJobIdIsKeyedByItsEntry() {
        String key = DeadLetterRecord.entryKey(queue, "1700000000000-7");
        DeadLetterRecord malformed = new DeadLetterRecord(key, queue, DeadLetterReason.MALFORMED,
                JobError.permanent("malformed", "no job_id"), 0, CONSUMER, "1700000000000-7", T0);

        assertThat(outcomes.recordDead(malformed)).isEqualTo(new JobOutcome.Dead(malformed));
        assertThat(outcomes.find(queue, key)).contains(new JobOutcome.Dead(malformed));
        assertThat(outcomes.countDead(queue)).isEqualTo(Map.of(DeadLetterReason.MALFORMED, 1L));
    }

    @Nested
    class WhenSearchingOutcomes {
        @Test
        void itFindsNewestFirstByStateReasonTimeAndErrorTextPageByPage() {
            JobOutcome completed = complete(job());
            clock.advance(Duration.ofSeconds(1));
            JobOutcome exhausted = outcomes.recordDead(dead(job(), DeadLetterReason.EXHAUSTED));
            clock.advance(Duration.ofSeconds(1));
            Job full = job();
            JobOutcome poison = outcomes.recordDead(new DeadLetterRecord(full.id().value(), queue,
                    DeadLetterReason.POISON, JobError.permanent("java.io.IOException", "Disk 100% FULL on /var"), 1,
                    CONSUMER, "1700000000000-9", clock.instant()));
            clock.advance(Duration.ofSeconds(1));
            DeadLetterRecord replayedRecord = dead(job(), DeadLetterReason.NON_RETRYABLE);
            outcomes.recordDead(replayedRecord);
            outcomes.recordReplayed(queue, List.of(replayedRecord.key()), clock.advance(Duration.ofSeconds(1)));
            JobOutcome replayed = outcomes.find(queue, replayedRecord.key()).orElseThrow();
            OutcomeQuery all = OutcomeQuery.all(queue);

            List<JobOutcome> first = outcomes.search(all, 2);
            List<JobOutcome> second = outcomes.search(all.withBefore(OutcomeCursor.after(first.get(1))), 2);

            assertThat(first).containsExactly(replayed, poison);
            assertThat(second).containsExactly(exhausted, completed);
            assertThat(outcomes.search(all.withBefore(OutcomeCursor.after(completed)), 2)).isEmpty();
            assertThat(outcomes.search(query(Optional.of(OutcomeState.DEAD), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty()), 10)).containsExactly(poison, exhausted);
            assertThat(outcomes.search(query(Optional.empty(), Optional.of(DeadLetterReason.POISON), Optional.empty(),
                    Optional.empty(), Optional.empty()), 10)).containsExactly(poison);
            assertThat(outcomes.search(query(Optional.empty(), Optional.empty(), Optional.of(T0.plusSeconds(1)),
                    Optional.of(exhausted.at().plusSeconds(2)), Optional.empty()), 10))
                    .containsExactly(poison, exhausted);
            assertThat(outcomes.search(query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.of("disk 100% full")), 10)).as("ignoring case, %% literal").containsExactly(poison);
            assertThat(outcomes.search(query(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.of("disk 1_0")), 10)).as("_ literal").isEmpty();
            assertThat(outcomes.search(OutcomeQuery.all(QueueName.of("elsewhere-" + UUID.randomUUID())), 10)).isEmpty();
        }

        @Test
        void pagingThroughTheSameInstantNeitherSkipsNorRepeatsOne() {
            List<JobOutcome> done = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                done.add(complete(job()));
            }
            List<JobOutcome> paged = new ArrayList<>();
            OutcomeQuery query = OutcomeQuery.all(queue);
            List<JobOutcome> page = outcomes.search(query, 2);
            for (int pages = 0; !page.isEmpty() && pages < done.size(); pages++) {
                paged.addAll(page);
                page = outcomes.search(query.withBefore(OutcomeCursor.after(page.get(page.size() - 1))), 2);
            }

            assertThat(paged).containsExactlyInAnyOrderElementsOf(done).doesNotHaveDuplicates();
        }
    }

    @Test
    void completionsAreCountedSinceAnInstant() {
        complete(job());
        clock.advance(Duration.ofMinutes(30));
        complete(job());
        outcomes.recordDead(dead(job(), DeadLetterReason.POISON));

        assertThat(outcomes.countCompletedSince(queue, T0)).isEqualTo(2);
        assertThat(outcomes.countCompletedSince(queue, T0.plusSeconds(1))).isEqualTo(1);
        assertThat(outcomes.countCompletedSince(queue, clock.instant().plusMillis(1))).isZero();
    }

    @Test
    void aDeadJobLeavesTheSameIdOnAnotherQueueFreeToRun() {
        Job dead = job();
        Job mailed = Job.create(dead.id(), otherQueue, "{}", T0);
        DeadLetterRecord record = dead(dead, DeadLetterReason.EXHAUSTED);
        outcomes.recordDead(record);

        LedgerOutcome outcome = ledger.execute(execution(mailed, 1), transaction -> Optional.of("mailed"));

        assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(outcomes.find(queue, dead.id().value())).contains(new JobOutcome.Dead(record));
        assertThat(outcomes.find(otherQueue, dead.id().value())).hasValueSatisfying(found ->
                assertThat(found).isInstanceOf(JobOutcome.Completed.class));
        assertThat(outcomes.countDead(otherQueue)).isEmpty();
    }

    @Test
    void aDeadLetterOnAnotherQueueIsRecordedBesideACompletion() {
        Job done = job();
        complete(done);
        DeadLetterRecord elsewhere = new DeadLetterRecord(done.id().value(), otherQueue, DeadLetterReason.POISON,
                JobError.permanent("poison", "p"), 2, CONSUMER, "1700000000000-4", T0);

        assertThat(outcomes.recordDead(elsewhere)).isEqualTo(new JobOutcome.Dead(elsewhere));
        assertThat(outcomes.countDead(otherQueue)).isEqualTo(Map.of(DeadLetterReason.POISON, 1L));
        assertThat(outcomes.find(queue, done.id().value())).hasValueSatisfying(found ->
                assertThat(found).isInstanceOf(JobOutcome.Completed.class));
    }

    @Test
    void replayingOrPurgingChangesOnlyTheJobOfItsQueue() {
        Job job = job();
        DeadLetterRecord here = dead(job, DeadLetterReason.EXHAUSTED);
        DeadLetterRecord there = new DeadLetterRecord(here.key(), otherQueue, here.reason(), here.error(),
                here.attempts(), CONSUMER, here.entryId(), here.deadAt());
        outcomes.recordDead(here);
        outcomes.recordDead(there);

        assertThat(outcomes.recordReplayed(queue, List.of(here.key()), T0.plusSeconds(1))).isOne();
        assertThat(outcomes.recordPurged(otherQueue, List.of(here.key()), T0.plusSeconds(2))).isOne();

        assertThat(outcomes.find(queue, here.key())).contains(new JobOutcome.Replayed(here, T0.plusSeconds(1)));
        assertThat(outcomes.find(otherQueue, here.key())).contains(new JobOutcome.Purged(there, T0.plusSeconds(2)));
    }

    @Test
    void aCancelLeavesTheSameIdOnAnotherQueueToRun() {
        Job cancelled = job();
        Job mailed = Job.create(cancelled.id(), otherQueue, "{}", T0);
        outcomes.recordCancelled(cancelled.id().value(), queue, T0);

        LedgerOutcome outcome = ledger.execute(execution(mailed, 2), transaction -> Optional.empty());

        assertThat(outcome).isInstanceOf(LedgerOutcome.Committed.class);
        assertThat(outcomes.recordCancelled(cancelled.id().value(), otherQueue, T0.plusSeconds(1)))
                .isEqualTo(new JobOutcome.Completed(ExecutionLedgerContract.completionOf(outcome)));
        assertThat(outcomes.find(queue, cancelled.id().value()))
                .contains(new JobOutcome.Cancelled(cancelled.id().value(), queue, T0));
    }

    @Test
    void aSearchShowsOnlyItsOwnQueuesJobWhereAnIdRepeats() {
        Job job = job();
        JobOutcome here = complete(job);
        complete(Job.create(job.id(), otherQueue, "{}", T0));

        assertThat(outcomes.search(OutcomeQuery.all(queue), 10)).containsExactly(here);
        assertThat(outcomes.search(OutcomeQuery.all(otherQueue), 10)).singleElement().satisfies(found ->
                assertThat(found.queue()).isEqualTo(otherQueue));
    }

    private JobOutcome complete(Job job) {
        return new JobOutcome.Completed(ExecutionLedgerContract.completionOf(
                ledger.execute(execution(job, 1), transaction -> Optional.of("done"))));
    }

    private OutcomeQuery query(Optional<OutcomeState> state, Optional<DeadLetterReason> reason, Optional<Instant> from,
                               Optional<Instant> to, Optional<String> errorText) {
        return new OutcomeQuery(queue, state, reason, from, to, errorText, Optional.empty());
    }

    private DeadLetterRecord dead(Job job, DeadLetterReason reason) {
        return new DeadLetterRecord(job.id().value(), queue, reason, JobError.retryable("java.io.IOException",
                "reset by peer"), 3, CONSUMER, "1700000000000-" + reason.ordinal(), clock.instant());
    }

    private Job job() {
        return Job.create(JobId.of("job-" + UUID.randomUUID()), queue, "{}", T0);
    }

    private static ExecutionLedger.Execution execution(Job job, long deliveryCount) {
        return new ExecutionLedger.Execution(job, CONSUMER, new DeliveryId("1-" + deliveryCount), deliveryCount,
                T0.plusSeconds(600));
    }

    private static ExecutionLedger.Effect counting(AtomicInteger runs) {
        return transaction -> {
            runs.incrementAndGet();
            return Optional.empty();
        };
    }
}
