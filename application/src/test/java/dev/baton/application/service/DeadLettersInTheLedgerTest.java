package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Replays, purges and the operator's view with the ledger as the record of dead letters. */
class DeadLettersInTheLedgerTest {
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final DeadLetterService deadLetters = new DeadLetterService(transport, ledger, clock);
    private final QueueQueryService queries = new QueueQueryService(transport, transport, Optional.of(ledger), ledger);
    private final QueueName queue = QueueName.of("orders");
    private final ConsumerName worker = ConsumerName.of("w1");

    @Test
    void aReplayRecordsReplayedThenRedrivenAndAgainChangesNothing() {
        deadLetter("r1", "r2");
        clock.advance(Duration.ofMinutes(5));

        int first = deadLetters.redrive(new RedriveDeadLettersUseCase.Command(queue, new DeadLetterSelection.All()));
        int second = deadLetters.redrive(new RedriveDeadLettersUseCase.Command(queue, new DeadLetterSelection.All()));

        assertThat(first).isEqualTo(2);
        assertThat(second).isZero();
        assertThat(ledger.find(queue, "r1")).hasValueSatisfying(outcome -> assertThat(((JobOutcome.Replayed) outcome)
                .replayedAt()).isEqualTo(clock.instant()));
        assertThat(transport.find(queue, JobId.of("r1"))).containsInstanceOf(JobSighting.Waiting.class);
        assertThat(queries.inspect(new InspectQueueUseCase.Command(queue)).deadByReason()).isEmpty();
    }

    @Test
    void replayingAJobThatCompletedLeavesItCompleted() {
        // a dead letter of a job that completed: Redis rolled back its group and the job ran again meanwhile
        complete("shipped");
        transport.publish(Job.create(JobId.of("shipped"), queue, "{}", clock.instant()));
        Delivery delivery = transport.lease(queue, worker, 1, Duration.ZERO).deliveries().get(0);
        transport.deadLetter(delivery, DeadLetter.of(((Delivery.Leased) delivery).job(), DeadLetterReason.POISON,
                JobError.permanent("poison", "too often"), 6, clock.instant()));

        deadLetters.redrive(new RedriveDeadLettersUseCase.Command(queue, new DeadLetterSelection.All()));

        assertThat(ledger.find(queue, "shipped")).hasValueSatisfying(outcome ->
                assertThat(outcome).isInstanceOf(JobOutcome.Completed.class));
    }

    @Test
    void onlyTheSelectedDeadLettersAreRecordedPurged() {
        deadLetter("keep", "drop");
        var drop = transport.deadLetters(queue, Optional.empty(), 10).get(1).id();

        int purged = deadLetters.purge(new PurgeDeadLettersUseCase.Command(queue,
                new DeadLetterSelection.ByIds(List.of(drop))));

        assertThat(purged).isEqualTo(1);
        assertThat(ledger.find(queue, "drop")).hasValueSatisfying(outcome ->
                assertThat(outcome).isInstanceOf(JobOutcome.Purged.class));
        assertThat(ledger.find(queue, "keep")).hasValueSatisfying(outcome ->
                assertThat(outcome).isInstanceOf(JobOutcome.Dead.class));
        assertThat(queries.inspect(new InspectQueueUseCase.Command(queue)).deadByReason())
                .isEqualTo(Map.of(DeadLetterReason.EXHAUSTED, 1L));
    }

    @Test
    void aJobIsReportedDeadFromTheLedgerEvenWhenTheTransportForgotIt() {
        ledger.recordDead(new DeadLetterRecord("lost", queue, DeadLetterReason.POISON,
                JobError.permanent("poison", "too often"), 6, worker, "1-0", clock.instant()));

        Whereabouts whereabouts = queries.locate(new LocateJobUseCase.Command(queue, JobId.of("lost")));

        assertThat(whereabouts).isInstanceOfSatisfying(Whereabouts.DeadLettered.class, dead -> {
            assertThat(((JobOutcome.Dead) dead.outcome()).record().reason()).isEqualTo(DeadLetterReason.POISON);
            assertThat(dead.sighting()).isEmpty();
        });
        assertThat(queries.locate(new LocateJobUseCase.Command(QueueName.of("elsewhere"), JobId.of("lost"))))
                .isInstanceOf(Whereabouts.Unknown.class);
    }

    /** Dead-letters each job as the worker does: the ledger first, then the transport. */
    private void deadLetter(String... ids) {
        for (String id : ids) {
            transport.publish(Job.create(JobId.of(id), queue, "{}", clock.instant()));
            Delivery delivery = transport.lease(queue, worker, 1, Duration.ZERO).deliveries().get(0);
            DeadLetter letter = DeadLetter.of(((Delivery.Leased) delivery).job(), DeadLetterReason.EXHAUSTED,
                    JobError.permanent("t", "m"), 5, clock.instant());
            ledger.recordDead(DeadLetterRecord.of(letter, worker, delivery.id().value()));
            transport.deadLetter(delivery, letter);
        }
    }

    private void complete(String id) {
        ledger.execute(new ExecutionLedger.Execution(Job.create(JobId.of(id), queue, "{}", clock.instant()), worker,
                new DeliveryId("9-0"), 2, clock.instant()), transaction -> Optional.empty());
    }
}
