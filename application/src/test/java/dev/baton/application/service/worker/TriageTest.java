package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.NoHandlerPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TriageTest {
    private static final DeliveryLimit LIMIT = new DeliveryLimit(2);
    private static final Duration GRACE = Duration.ofMinutes(15);
    private static final NoHandlerPolicy POLICY = new NoHandlerPolicy(GRACE);

    private final MutableClock clock = MutableClock.at(Deliveries.NOW);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final Suspects suspects = new Suspects(new InFlight(1), new InMemoryStreamTransport(clock), ledger, LIMIT,
            clock, ConsumerName.of("w1"), JobObserver.NONE);
    private final JobHandler orders = context -> Optional.empty();
    private final JobHandler email = context -> Optional.empty();
    private final JobHandler fallback = context -> Optional.empty();
    private final JobHandlers handlers = JobHandlers.of(Map.of("orders", orders, "email", email,
            "fallback", fallback));

    @Test
    void aTypedJobRunsUnderItsTypesHandlerNeverTheQueues() {
        Triage triage = triage(Optional.empty());

        assertThat(run(triage.of(held(job("typed").withType("email"), 1), Set.of()))).isSameAs(email);
        Triage.Released refund = (Triage.Released) triage.of(held(job("refund").withType("refund"), 1), Set.of());
        assertThat(refund.problem()).isEqualTo("no handler named refund on this worker (its handlers: email,"
                + " fallback, orders)");
    }

    @Test
    void aJobWithoutAHandlerWaitsForOneWithoutSpendingAnAttempt() {
        Job refund = job("refund").withType("refund");

        Triage.Released released = (Triage.Released) triage(Optional.empty()).of(held(refund, 1), Set.of());

        assertThat(released.waiting().attempt()).isEqualTo(refund.attempt());
        assertThat(released.waiting().noHandlerSince()).contains(clock.instant());
        assertThat(released.waiting().notBefore()).contains(clock.instant().plus(NoHandlerPolicy.FIRST_WAIT));
    }

    @Test
    void aJobPastTheGraceForAHandlerIsDeadLetteredNamingWhatItNeeds() {
        Job waited = job("refund").withType("refund").waitingForHandler(clock.instant(), clock.instant());
        clock.advance(GRACE);

        Triage.Refused refused = (Triage.Refused) triage(Optional.empty()).of(held(waited, 1), Set.of());

        assertThat(refused.letter().reason()).isEqualTo(DeadLetterReason.NO_HANDLER);
        assertThat(refused.letter().attempts()).as("nothing ran").isZero();
        assertThat(refused.letter().lastError().retryable()).isFalse();
        assertThat(refused.letter().lastError().message()).isEqualTo("no handler named refund on this worker (its"
                + " handlers: email, fallback, orders); waited 15m for a worker that has one");
        assertThat(refused.letter().job()).hasValueSatisfying(job ->
                assertThat(job.noHandlerSince()).as("a replay waits afresh").isEmpty());
    }

    @Test
    void anUntypedJobRunsUnderTheWorkersHandlerElseTheQueues() {
        assertThat(run(triage(Optional.of("fallback")).of(held(job("untyped"), 1), Set.of()))).isSameAs(fallback);
        assertThat(run(triage(Optional.empty()).of(held(job("untyped"), 1), Set.of()))).isSameAs(orders);
        Triage.Released none = (Triage.Released) new Triage(suspects, JobHandlers.of(Map.of("email", email)),
                Optional.of("fallback"), POLICY, clock).of(held(job("untyped"), 1), Set.of());
        assertThat(none.problem()).isEqualTo("no handler named fallback or orders on this worker (its handlers:"
                + " email)");
    }

    @Test
    void aCancelledJobIsSettledBeforeAnythingElseEvenWithoutAHandler() {
        HeldDelivery held = held(job("cancelled").withType("unknown-type"), 1);

        Triage.Verdict verdict = triage(Optional.empty()).of(held, Set.of(JobId.of("cancelled")));

        assertThat(verdict).isInstanceOfSatisfying(Triage.Cancelled.class, cancelled ->
                assertThat(cancelled.held()).isSameAs(held));
        assertThat(triage(Optional.empty()).of(held, Set.of(JobId.of("other"))))
                .isInstanceOf(Triage.Released.class);
    }

    @Test
    void aMalformedEntryIsRefusedWithItsFieldsVerbatim() {
        Map<String, String> garbage = Map.of("payload", "{}");
        Triage.Refused refused = (Triage.Refused) triage(Optional.empty()).of(new HeldDelivery(
                new Delivery.Malformed(Deliveries.QUEUE, Deliveries.nextId(), 1, garbage, "no job_id")), Set.of());

        assertThat(refused.letter().reason()).isEqualTo(DeadLetterReason.MALFORMED);
        assertThat(refused.letter().rawFields()).isEqualTo(garbage);
        assertThat(refused.letter().lastError().message()).isEqualTo("no job_id");
    }

    @Test
    void aSuspectIsPoisonOnlyOnceItsIsolatedDeliveriesReachedTheLimit() {
        Triage triage = triage(Optional.empty());

        assertThat(triage.of(new HeldDelivery(Deliveries.suspect(job("one-isolated-death"), 1)), Set.of()))
                .isInstanceOf(Triage.Run.class);
        DeadLetter poison = ((Triage.Refused) triage.of(new HeldDelivery(Deliveries.suspect(job("poison"), 2)),
                Set.of())).letter();
        assertThat(poison.reason()).isEqualTo(DeadLetterReason.POISON);
        assertThat(poison.attempts()).isEqualTo(4);
        assertThat(poison.lastError().message()).isEqualTo("ran alone in its worker 2 times and never finished"
                + " (4 deliveries), the delivery limit is 2");
    }

    @Test
    void aJobThatOnlySharedDeadWorkersIsNeverPoisonHoweverOften() {
        Triage triage = triage(Optional.empty());

        assertThat(triage.of(held(job("unlucky"), 50), Set.of())).isInstanceOf(Triage.Run.class);
        assertThat(triage.of(new HeldDelivery(new Delivery.Malformed(Deliveries.QUEUE, Deliveries.nextId(), 50,
                Map.of(), "no job_id")), Set.of())).isInstanceOfSatisfying(Triage.Refused.class, refused ->
                assertThat(refused.letter().reason()).isEqualTo(DeadLetterReason.MALFORMED));
    }

    @Test
    void aSuspectThatHadCompletedIsAcknowledgedWithoutRunning() {
        Job done = job("committed-then-crashed");
        ledger.execute(new ExecutionLedger.Execution(done, ConsumerName.of("earlier"), Deliveries.nextId(), 1,
                clock.instant()), transaction -> Optional.empty());

        Triage.Completed completed = (Triage.Completed) triage(Optional.empty()).of(held(done, 2), Set.of());

        assertThat(completed.completion().jobId()).isEqualTo(done.id());
    }

    private Triage triage(Optional<String> defaultHandler) {
        return new Triage(suspects, handlers, defaultHandler, POLICY, clock);
    }

    private static JobHandler run(Triage.Verdict verdict) {
        return ((Triage.Run) verdict).handler();
    }

    private static Job job(String id) {
        return Job.create(JobId.of(id), Deliveries.QUEUE, "{}", Deliveries.NOW);
    }

    private static HeldDelivery held(Job job, long deliveryCount) {
        return new HeldDelivery(Deliveries.leased(job, deliveryCount));
    }
}
