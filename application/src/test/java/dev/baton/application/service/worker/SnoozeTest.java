package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.SnoozeException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.application.testing.InMemoryEffects;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Backoff;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DueHorizon;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Jitter;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** A handler's snooze, on the in-memory adapters: the job waits, its attempt unspent and its writes rolled back. */
class SnoozeTest {
    private static final Duration SNOOZE = Duration.ofMinutes(5);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final QueueName queue = QueueName.of("pickups");
    private final List<Integer> attemptsSeen = new ArrayList<>();
    private int snoozesLeft = 3;

    /** Writes, then snoozes while {@code snoozesLeft}: a snoozed attempt's write must not commit. */
    private final JobHandler handler = context -> {
        attemptsSeen.add(context.attempt());
        context.unwrap(InMemoryEffects.class).increment("booked:" + context.job().id());
        if (snoozesLeft-- > 0) {
            throw new SnoozeException(SNOOZE);
        }
        return Optional.of("booked after " + context.job().snoozes() + " snoozes");
    };

    @Nested
    class WhenAJobSnoozes {
        @Test
        void itWaitsItsDelayWithItsAttemptUnspentAndNothingCommitted() {
            // one attempt only: a snooze that spent one would dead-letter the job
            InlineWorker worker = worker(new RetryPolicy(1, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of()));
            enqueue("p-1");

            assertThat(worker.runOnce()).isEqualTo(1);

            assertThat(transport.find(queue, JobId.of("p-1"))).hasValueSatisfying(sighting ->
                    assertThat(sighting).isInstanceOfSatisfying(JobSighting.Delayed.class, delayed -> {
                        assertThat(delayed.dueAt()).isEqualTo(clock.instant().plus(SNOOZE));
                        assertThat(delayed.job().attempt()).isZero();
                        assertThat(delayed.job().snoozes()).isEqualTo(1);
                    }));
            assertThat(ledger.committedEffects()).isEmpty();
            assertThat(transport.stats(queue).pending()).isZero();
            clock.advance(SNOOZE.minusSeconds(1));
            worker.promoteDue();
            assertThat(worker.runOnce()).as("not before its delay").isZero();

            for (int snooze = 2; snooze <= 4; snooze++) {
                clock.advance(SNOOZE);
                worker.promoteDue();
                assertThat(worker.runOnce()).isEqualTo(1);
            }

            assertThat(attemptsSeen).containsExactly(1, 1, 1, 1);
            assertThat(ledger.find(queue, JobId.of("p-1"))).hasValueSatisfying(completion -> {
                assertThat(completion.attempt()).isEqualTo(1);
                assertThat(completion.result()).contains("booked after 3 snoozes");
            });
            assertThat(ledger.committedEffects()).containsExactly(Map.entry("booked:p-1", "1"));
            assertThat(worker.counters().snoozed()).isEqualTo(3);
            assertThat(worker.counters().retried()).isZero();
            assertThat(worker.counters().deadLettered()).isZero();
        }
    }

    @Test
    void aSnoozeNeedsAPositiveDelay() {
        assertThatThrownBy(() -> new SnoozeException(Duration.ZERO)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("positive delay");
        assertThatThrownBy(() -> new SnoozeException(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new SnoozeException(null)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void aSnoozeStaysWithinTheDueHorizon() {
        assertThat(new SnoozeException(DueHorizon.MAX_AHEAD).delay()).isEqualTo(DueHorizon.MAX_AHEAD);
        assertThatThrownBy(() -> new SnoozeException(Duration.ofDays(365 * 100)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("more than 10 years");
    }

    private InlineWorker worker(RetryPolicy retryPolicy) {
        WorkerService service = new WorkerService(transport, transport, ledger, ledger,
                JobHandlers.of(Map.of(queue.value(), handler)),
                WorkerSettings.DEFAULTS.with(Retries.DEFAULT.withRetryPolicy(retryPolicy)), clock, () -> 0.5,
                JobObserver.NONE, MaintenanceObserver.NONE, JobTracing.NONE);
        return service.inline(new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of("w1"), 4,
                Optional.empty()));
    }

    private void enqueue(String id) {
        new EnqueueService(transport, clock, PayloadLimit.DEFAULT)
                .enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{}"));
    }
}
