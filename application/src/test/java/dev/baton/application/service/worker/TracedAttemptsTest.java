package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.handler.SnoozeException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.JobTracing.AttemptEnd;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Backoff;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Jitter;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the worker and the producer tell {@link JobTracing}: every sending, every attempt with the headers its job
 * carries, how each attempt was settled and with which cause, and the headers a retry carries on.
 */
class TracedAttemptsTest {
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final RecordingTracing tracing = new RecordingTracing();
    private final EnqueueService enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT,
            JobObserver.NONE, tracing);
    private final QueueName queue = QueueName.of("orders");

    @Test
    void anEnqueuedJobCarriesItsSendingsHeadersAndTheSendingHearsIt() {
        Job sent = enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("o-1"), "{}"));

        assertThat(sent.headers()).containsEntry("trace", "sent:o-1");
        assertThat(tracing.events).containsExactly("sent o-1");
        InlineWorker worker = inline(context -> Optional.empty());
        worker.runOnce();
        assertThat(tracing.attemptHeaders).singleElement()
                .satisfies(headers -> assertThat(headers).containsEntry("trace", "sent:o-1"));
    }

    @Test
    void anAttemptEndsOnceAsSettledARetryCarriesTheFailedOnesHeaders() {
        AtomicInteger runs = new AtomicInteger();
        InlineWorker worker = inline(context -> {
            assertThat(RecordingTracing.CURRENT.get()).as("the attempt's trace is current in the handler")
                    .isEqualTo("attempt " + context.attempt());
            if (runs.incrementAndGet() < 3) {
                throw new IllegalStateException("flaky " + runs.get());
            }
            return Optional.of("done");
        });
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("o-2"), "{}"));

        drain(worker);

        assertThat(tracing.events).containsExactly("sent o-2",
                "attempt 1 RETRIED IllegalStateException: flaky 1",
                "attempt 2 RETRIED IllegalStateException: flaky 2",
                "attempt 3 COMPLETED");
        assertThat(tracing.attemptHeaders).extracting(headers -> headers.get("retried_from"))
                .containsExactly(null, "attempt 1", "attempt 2");
        assertThat(tracing.attemptHeaders).allSatisfy(headers ->
                assertThat(headers).containsEntry("trace", "sent:o-2"));
    }

    @Test
    void aDeadLetteredAttemptEndsWithWhatFailedIt() {
        InlineWorker worker = inline(context -> {
            throw new NonRetryableException("card declined");
        });
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("o-3"), "{}"));

        drain(worker);

        assertThat(tracing.events).containsExactly("sent o-3",
                "attempt 1 DEAD_LETTERED NonRetryableException: card declined");
    }

    @Test
    void aSnoozeEndsSnoozedWithoutErrorAndTheNextRunCarriesItsHeaders() {
        AtomicInteger runs = new AtomicInteger();
        InlineWorker worker = inline(context -> {
            if (runs.incrementAndGet() == 1) {
                throw new SnoozeException(Duration.ofMillis(1));
            }
            return Optional.of("done");
        });
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("o-4"), "{}"));

        worker.runOnce();
        clock.advance(Duration.ofMillis(1));
        drain(worker);

        assertThat(tracing.events).containsExactly("sent o-4", "attempt 1 SNOOZED", "attempt 1 COMPLETED");
        assertThat(tracing.attemptHeaders).extracting(headers -> headers.get("retried_from"))
                .containsExactly(null, "attempt 1");
    }

    private InlineWorker inline(JobHandler handler) {
        WorkerSettings settings = WorkerSettings.DEFAULTS.with(Retries.DEFAULT.withRetryPolicy(
                new RetryPolicy(3, new Backoff.Fixed(Duration.ZERO), Jitter.NONE, Set.of())));
        WorkerService workers = new WorkerService(transport, transport, ledger, ledger, JobHandlers.of(Map.of("orders",
                handler)), settings, clock, () -> 0.5, JobObserver.NONE, MaintenanceObserver.NONE, tracing);
        return workers.inline(new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of("w1"), 1,
                Optional.empty()));
    }

    private static void drain(InlineWorker worker) {
        do {
            worker.promoteDue();
        } while (worker.runOnce() > 0);
    }

    /** Writes down what it is told, as text; its headers name the sending and the attempt they came from. */
    private static final class RecordingTracing implements JobTracing {
        static final ThreadLocal<String> CURRENT = new ThreadLocal<>();
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Map<String, String>> attemptHeaders = new CopyOnWriteArrayList<>();

        @Override
        public Sending sending(Job job) {
            Map<String, String> headers = new HashMap<>(job.headers());
            headers.put("trace", "sent:" + job.id().value());
            Job traced = job.withHeaders(headers);
            return new Sending() {
                @Override
                public Job job() {
                    return traced;
                }

                @Override
                public void sent() {
                    events.add("sent " + job.id().value());
                }
            };
        }

        @Override
        public AttemptTrace attemptStarted(Job job) {
            attemptHeaders.add(job.headers());
            String name = "attempt " + job.currentAttempt();
            return new AttemptTrace() {
                @Override
                public <T> T during(HandlerCall<T> handler) throws Exception {
                    CURRENT.set(name);
                    try {
                        return handler.call();
                    } finally {
                        CURRENT.remove();
                    }
                }

                @Override
                public Map<String, String> retryHeaders() {
                    return Map.of("retried_from", name);
                }

                @Override
                public void ended(AttemptEnd end, Optional<Throwable> cause) {
                    events.add(name + " " + end + cause.map(c -> " " + c.getClass().getSimpleName() + ": "
                            + c.getMessage()).orElse(""));
                }
            };
        }
    }
}
