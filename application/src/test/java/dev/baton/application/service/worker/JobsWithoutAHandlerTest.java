package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.DeadLetterService;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.worker.WorkerSettings.Admission;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.application.testing.InMemoryEffects;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Backoff;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Jitter;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.NoHandlerPolicy;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Jobs routed by their type, whatever the queue, on the in-memory adapters: a job whose type has no handler on a
 * worker waits for a worker that has one (a rolling deploy), spending nothing, and is dead-lettered NO_HANDLER after
 * the grace.
 */
class JobsWithoutAHandlerTest {
    private static final Duration GRACE = Duration.ofMinutes(15);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final EnqueueService enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT);
    private final QueueName shipping = QueueName.of("shipping");
    /** Writes an effect: a job that ran where it must not would leave one. */
    private final JobHandler shipOrder = context -> {
        context.unwrap(InMemoryEffects.class).increment("shipped:" + context.job().id());
        return Optional.of("shipped");
    };

    @Test
    void aWorkerOnAnyQueueRunsTheJobsWhoseTypeItHasAHandlerFor() {
        InlineWorker worker = worker(Map.of("ship-order", shipOrder, "send-email", shipOrder));
        enqueueTyped("order-1", "ship-order");
        enqueueTyped("email-1", "send-email");

        assertThat(worker.runOnce()).isEqualTo(2);

        assertThat(ledger.committedEffects()).containsOnlyKeys("shipped:order-1", "shipped:email-1");
        assertThat(worker.counters().completed()).isEqualTo(2);
    }

    @Test
    void aJobOfATypeWithoutAHandlerWaitsWithNothingSpentOrCommitted() {
        // one attempt only: a wait that spent it would dead-letter the job as EXHAUSTED
        InlineWorker old = worker(Map.of("send-email", shipOrder));
        enqueueTyped("order-1", "ship-order");

        assertThat(old.runOnce()).isEqualTo(1);

        Job waiting = delayed("order-1");
        assertThat(waiting.attempt()).isZero();
        assertThat(waiting.noHandlerSince()).contains(clock.instant());
        assertThat(waiting.notBefore()).contains(clock.instant().plus(NoHandlerPolicy.FIRST_WAIT));
        assertThat(ledger.committedEffects()).isEmpty();
        assertThat(ledger.find(shipping, "order-1")).as("no outcome recorded").isEmpty();
        assertThat(transport.stats(shipping).pending()).isZero();
        assertThat(old.counters().deadLettered()).isZero();
        assertThat(old.counters().retried()).isZero();
    }

    @Test
    void duringARollingDeployAWorkerThatHasTheHandlerTakesTheJob() {
        InlineWorker old = worker(Map.of("send-email", shipOrder));
        InlineWorker upgraded = worker(Map.of("send-email", shipOrder, "ship-order", shipOrder));
        enqueueTyped("order-1", "ship-order");
        old.runOnce();
        clock.advance(NoHandlerPolicy.FIRST_WAIT);
        old.promoteDue();

        assertThat(upgraded.runOnce()).isEqualTo(1);

        assertThat(ledger.committedEffects()).containsExactly(Map.entry("shipped:order-1", "1"));
        assertThat(ledger.find(shipping, JobId.of("order-1"))).hasValueSatisfying(completion ->
                assertThat(completion.attempt()).as("the wait spent no attempt").isEqualTo(1));
    }

    @Test
    void anUntypedJobWaitsTooWhenItsQueueHasNoHandlerOfItsName() {
        InlineWorker worker = worker(Map.of("ship-order", shipOrder));
        enqueue.enqueue(EnqueueJobUseCase.Command.now(shipping, JobId.of("plain-1"), "{}"));

        worker.runOnce();

        assertThat(delayed("plain-1").type()).isEmpty();
        assertThat(ledger.committedEffects()).isEmpty();
    }

    @Nested
    class AfterTheGrace {
        @Test
        void itIsDeadLetteredNoHandlerAndAReplayRunsOnceAHandlerExists() {
            InlineWorker old = worker(Map.of("send-email", shipOrder));
            enqueueTyped("order-1", "ship-order");
            Instant firstSeen = clock.instant();
            int leases = 0;
            for (int pass = 0; pass < 100 && old.counters().deadLettered() == 0; pass++) {
                leases += old.runOnce();
                clock.set(transport.nextDue(shipping).orElse(clock.instant()));
                old.promoteDue();
            }

            assertThat(clock.instant()).isEqualTo(firstSeen.plus(GRACE));
            assertThat(leases).as("leased about once a minute").isBetween(15, 25);
            DeadLetter letter = transport.deadLetters(shipping, Optional.empty(), 10).get(0).letter();
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.NO_HANDLER);
            assertThat(letter.attempts()).isZero();
            assertThat(letter.lastError().message()).isEqualTo("no handler named ship-order on this worker (its"
                    + " handlers: send-email); waited 15m for a worker that has one");
            assertThat(ledger.find(shipping, "order-1")).hasValueSatisfying(outcome -> assertThat(outcome)
                    .isInstanceOfSatisfying(JobOutcome.Dead.class, dead ->
                            assertThat(dead.record().reason()).isEqualTo(DeadLetterReason.NO_HANDLER)));
            assertThat(ledger.committedEffects()).isEmpty();

            new DeadLetterService(transport, ledger, clock).redrive(new RedriveDeadLettersUseCase.Command(shipping,
                    new DeadLetterSelection.ByReason(DeadLetterReason.NO_HANDLER)));
            assertThat(worker(Map.of("ship-order", shipOrder)).runOnce()).isEqualTo(1);

            assertThat(ledger.committedEffects()).containsExactly(Map.entry("shipped:order-1", "1"));
        }
    }

    @Test
    void aReplayedJobStillWithoutAHandlerWaitsTheWholeGraceAgain() {
        InlineWorker old = worker(Map.of("send-email", shipOrder), Duration.ZERO);
        enqueueTyped("order-1", "ship-order");
        old.runOnce();
        new DeadLetterService(transport, ledger, clock).redrive(new RedriveDeadLettersUseCase.Command(shipping,
                new DeadLetterSelection.All()));
        clock.advance(Duration.ofHours(1));

        worker(Map.of("send-email", shipOrder)).runOnce();

        assertThat(delayed("order-1").noHandlerSince()).contains(clock.instant());
    }

    private InlineWorker worker(Map<String, JobHandler> handlers) {
        return worker(handlers, GRACE);
    }

    private InlineWorker worker(Map<String, JobHandler> handlers, Duration grace) {
        WorkerSettings settings = WorkerSettings.DEFAULTS.with(Admission.DEFAULT.withNoHandlerGrace(grace))
                .with(Retries.DEFAULT.withRetryPolicy(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO),
                        Jitter.NONE, Set.of())));
        WorkerService service = new WorkerService(transport, transport, ledger, ledger, JobHandlers.of(handlers),
                settings, clock, () -> 0.5, JobObserver.NONE, MaintenanceObserver.NONE, JobTracing.NONE);
        return service.inline(new RunWorkerUseCase.Command(List.of(shipping), ConsumerName.of("w1"), 4,
                Optional.empty()));
    }

    private void enqueueTyped(String id, String type) {
        enqueue.enqueue(EnqueueJobUseCase.Command.now(shipping, JobId.of(id), "{}").withType(type));
    }

    private Job delayed(String id) {
        return ((JobSighting.Delayed) transport.find(shipping, JobId.of(id)).orElseThrow()).job();
    }
}
