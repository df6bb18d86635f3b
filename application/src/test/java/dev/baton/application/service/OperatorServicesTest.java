package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.baton.application.port.in.CountCompletionsUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.SearchOutcomesUseCase;
import dev.baton.application.port.in.TrimQueueUseCase;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
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
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The operator-facing services: inspect, locate, dead letters, trim. */
class OperatorServicesTest {
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final QueueName queue = QueueName.of("orders");
    private final ConsumerName worker = ConsumerName.of("w1");

    @Test
    void inspectAddsTheLedgersCompletionsWhenThereIsALedger() {
        publish("a");
        complete("done");

        InspectQueueUseCase.QueueReport withLedger = new QueueQueryService(transport, transport, Optional.of(ledger),
                ledger).inspect(new InspectQueueUseCase.Command(queue));
        InspectQueueUseCase.QueueReport withoutLedger = new QueueQueryService(transport, transport, Optional.empty(),
                JobOutcomes.NOT_RECORDED).inspect(new InspectQueueUseCase.Command(queue));

        assertThat(withLedger.stats().length()).isEqualTo(1);
        assertThat(withLedger.completed()).isEqualTo(OptionalLong.of(1));
        assertThat(withoutLedger.completed()).isEmpty();
    }

    @Test
    void totalsAreReadForEveryQueueAskedForAndNoneForNoQueue() {
        QueueQueryService service = new QueueQueryService(transport, transport, Optional.empty(),
                JobOutcomes.NOT_RECORDED);
        QueueName other = QueueName.of("mail");
        publish("a", "b");
        List<Delivery> leased = transport.lease(queue, worker, 2, Duration.ZERO).deliveries();
        transport.acknowledge(queue, leased.stream().map(Delivery::id).toList());

        assertThat(service.totals(new ReadQueueTotalsUseCase.Command(List.of(queue, other))))
                .containsExactly(entry(queue, new QueueTotals(queue, 2, 0, 0)), entry(other, QueueTotals.none(other)));
        assertThat(service.totals(new ReadQueueTotalsUseCase.Command(List.of()))).isEmpty();
    }

    @Test
    void locatePrefersTheCompletionThenTheTransport() {
        QueueQueryService service = new QueueQueryService(transport, transport, Optional.of(ledger), ledger);
        publish("waiting");
        complete("done");

        assertThat(service.locate(new LocateJobUseCase.Command(queue, JobId.of("done"))))
                .isInstanceOfSatisfying(Whereabouts.Completed.class, completed ->
                        assertThat(completed.completion().jobId()).isEqualTo(JobId.of("done")));
        assertThat(service.locate(new LocateJobUseCase.Command(queue, JobId.of("waiting"))))
                .isInstanceOfSatisfying(Whereabouts.InTransport.class, found ->
                        assertThat(found.sighting()).isInstanceOf(JobSighting.Waiting.class));
        assertThat(service.locate(new LocateJobUseCase.Command(queue, JobId.of("nobody"))))
                .isInstanceOf(Whereabouts.Unknown.class);
        assertThat(service.locate(new LocateJobUseCase.Command(QueueName.of("elsewhere"), JobId.of("done"))))
                .isInstanceOf(Whereabouts.Unknown.class);
    }

    @Test
    void deadLettersAreListedRedrivenAndPurged() {
        DeadLetterService service = new DeadLetterService(transport, ledger, clock);
        publish("x1", "x2", "x3");
        for (Delivery delivery : transport.lease(queue, worker, 3, Duration.ZERO).deliveries()) {
            Job job = ((Delivery.Leased) delivery).job();
            transport.deadLetter(delivery, DeadLetter.of(job, DeadLetterReason.EXHAUSTED,
                    JobError.permanent("t", "m"), 5, clock.instant()));
        }

        var page = service.list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 2));
        int redriven = service.redrive(new RedriveDeadLettersUseCase.Command(queue,
                new DeadLetterSelection.ByIds(List.of(page.get(0).id()))));
        int purged = service.purge(new PurgeDeadLettersUseCase.Command(queue, new DeadLetterSelection.All()));

        assertThat(page).hasSize(2);
        assertThat(redriven).isEqualTo(1);
        assertThat(purged).isEqualTo(2);
        assertThat(service.list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 10))).isEmpty();
        assertThat(transport.find(queue, JobId.of("x1"))).containsInstanceOf(JobSighting.Waiting.class);
    }

    @Nested
    class WithAFilter {
        @Test
        void onlyMatchesAreListedRedrivenPurgedAndASecondRedriveMovesNone() {
            DeadLetterService service = new DeadLetterService(transport, ledger, clock);
            publish("io-1", "io-2", "npe", "poison");
            List<Delivery> deliveries = transport.lease(queue, worker, 4, Duration.ZERO).deliveries();
            for (Delivery delivery : deliveries) {
                Job job = ((Delivery.Leased) delivery).job();
                boolean io = job.id().value().startsWith("io");
                DeadLetterReason reason = job.id().value().equals("poison") ? DeadLetterReason.POISON
                        : DeadLetterReason.EXHAUSTED;
                DeadLetter letter = DeadLetter.of(job, reason, JobError.permanent(io ? "java.io.IOException"
                        : "java.lang.NullPointerException", "m"), 5, clock.instant());
                ledger.recordDead(DeadLetterRecord.of(letter, worker, delivery.id().value()));
                transport.deadLetter(delivery, letter);
            }
            DeadLetterSelection ioExhausted = new DeadLetterSelection.ByFilter(Optional.of(DeadLetterReason.EXHAUSTED),
                    Optional.of("java.io.IOException"), Optional.empty(), Optional.empty());

            List<StoredDeadLetter> listed = service.list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 10,
                    ioExhausted));
            int first = service.redrive(new RedriveDeadLettersUseCase.Command(queue, ioExhausted));
            int second = service.redrive(new RedriveDeadLettersUseCase.Command(queue, ioExhausted));
            int purged = service.purge(new PurgeDeadLettersUseCase.Command(queue, new DeadLetterSelection.ByFilter(
                    Optional.of(DeadLetterReason.POISON), Optional.empty(), Optional.empty(), Optional.empty())));

            assertThat(listed).extracting(stored -> stored.letter().jobId().orElseThrow())
                    .containsExactly("io-1", "io-2");
            assertThat(first).isEqualTo(2);
            assertThat(second).as("replaying the same filter again runs nothing").isZero();
            assertThat(purged).isEqualTo(1);
            assertThat(service.list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 10)))
                    .extracting(stored -> stored.letter().jobId().orElseThrow()).containsExactly("npe");
            assertThat(ledger.find(queue, "io-1")).containsInstanceOf(JobOutcome.Replayed.class);
            assertThat(ledger.find(queue, "poison")).containsInstanceOf(JobOutcome.Purged.class);
        }

        @Test
        void aListStopsAtItsLimitAcrossTheTransportsPages() {
            DeadLetterService service = new DeadLetterService(transport, ledger, clock);
            int jobs = DeadLetterService.PAGE + 5;
            for (int i = 0; i < jobs; i++) {
                publish("j-" + i);
            }
            for (Delivery delivery : transport.lease(queue, worker, jobs, Duration.ZERO).deliveries()) {
                Job job = ((Delivery.Leased) delivery).job();
                boolean odd = Integer.parseInt(job.id().value().substring(2)) % 2 == 1;
                transport.deadLetter(delivery, DeadLetter.of(job, odd ? DeadLetterReason.POISON
                        : DeadLetterReason.EXHAUSTED, JobError.permanent("t", "m"), 1, clock.instant()));
            }
            DeadLetterSelection poison = new DeadLetterSelection.ByFilter(Optional.of(DeadLetterReason.POISON),
                    Optional.empty(), Optional.empty(), Optional.empty());

            List<StoredDeadLetter> first = service.list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 40,
                    poison));
            List<StoredDeadLetter> rest = service.list(new ListDeadLettersUseCase.Command(queue,
                    Optional.of(first.get(first.size() - 1).id()), 100, poison));

            assertThat(first).hasSize(40);
            assertThat(rest).hasSize(jobs / 2 - 40);
            assertThat(rest).allSatisfy(stored ->
                    assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.POISON));
        }
    }

    @Test
    void searchPagesByCursorAndCountsRecentCompletionsOnlyWithALedger() {
        OutcomeSearchService search = new OutcomeSearchService(Optional.of(ledger), clock);
        complete("c1");
        clock.advance(Duration.ofHours(2));
        complete("c2");
        complete("c3");

        SearchOutcomesUseCase.Page first = search.search(new SearchOutcomesUseCase.Command(OutcomeQuery.all(queue), 2));
        SearchOutcomesUseCase.Page last = search.search(new SearchOutcomesUseCase.Command(
                OutcomeQuery.all(queue).withBefore(first.next().orElseThrow()), 2));

        assertThat(first.items()).extracting(JobOutcome::key).containsExactly("c3", "c2");
        assertThat(last.items()).extracting(JobOutcome::key).containsExactly("c1");
        assertThat(last.next()).isEmpty();
        assertThat(search.countCompleted(new CountCompletionsUseCase.Command(queue, Duration.ofHours(1))))
                .isEqualTo(OptionalLong.of(2));
        OutcomeSearchService withoutLedger = new OutcomeSearchService(Optional.empty(), clock);
        assertThat(withoutLedger.countCompleted(new CountCompletionsUseCase.Command(queue, Duration.ofHours(1))))
                .isEmpty();
        assertThat(withoutLedger.search(new SearchOutcomesUseCase.Command(OutcomeQuery.all(queue), 2)).items())
                .isEmpty();
    }

    @Test
    void trimRemovesHistoryOlderThanTheRetentionAtTheClocksNow() {
        TrimService service = new TrimService(transport, new Retention(Duration.ofHours(1)), clock);
        publish("old");
        transport.acknowledge(queue, transport.lease(queue, worker, 1, Duration.ZERO).deliveries().stream()
                .map(Delivery::id).toList());

        TrimQueueUseCase.TrimReport early = service.trim(new TrimQueueUseCase.Command(queue));
        clock.advance(Duration.ofHours(2));
        TrimQueueUseCase.TrimReport late = service.trim(new TrimQueueUseCase.Command(queue));

        assertThat(early).isEqualTo(new TrimQueueUseCase.TrimReport(0, false));
        assertThat(late).isEqualTo(new TrimQueueUseCase.TrimReport(1, false));
        assertThat(transport.stats(queue).length()).isZero();
    }

    private void publish(String... ids) {
        for (String id : ids) {
            transport.publish(Job.create(JobId.of(id), queue, "{}", clock.instant()));
        }
    }

    private void complete(String id) {
        ledger.execute(new ExecutionLedger.Execution(Job.create(JobId.of(id), queue, "{}", clock.instant()), worker,
                new DeliveryId("1-0"), 1, clock.instant()), transaction -> Optional.empty());
    }
}
