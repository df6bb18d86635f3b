package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.AtLeastOnceExecution;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.worker.WorkerSettings.Leasing;
import dev.baton.application.service.worker.WorkerSettings.Polling;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Backoff;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Jitter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;

/**
 * What the worker's tests share: the in-memory adapters on a clock they drive, the handlers by name, the workers they
 * started (stopped after each test) and the helpers that start workers and enqueue jobs.
 */
abstract class WorkerFixture {
    static final Duration LEASE = Duration.ofSeconds(30);
    static final Duration PAST_LEASE = LEASE.plusSeconds(1);
    static final Duration WAIT = Duration.ofSeconds(10);

    final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    final EnqueueService enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT);
    final QueueName queue = QueueName.of("orders");
    final Map<String, JobHandler> handlers = new HashMap<>();
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final CountDownLatch never = new CountDownLatch(1);
    final List<RunningWorker> workers = new ArrayList<>();
    /** The default lease with loops that run every few milliseconds, so that a test waits little for them. */
    static final WorkerSettings QUICK_LOOPS = WorkerSettings.DEFAULTS
            .with(Leasing.of(LEASE).withExtendInterval(Duration.ofMillis(10))
                    .withRecoveryInterval(Duration.ofMillis(10)))
            .with(Polling.DEFAULT.withBlock(Duration.ofMillis(20)).withPromoteInterval(Duration.ofMillis(10)));

    WorkerSettings settings = QUICK_LOOPS.with(new Retries(new RetryPolicy(3, new Backoff.Fixed(Duration.ZERO),
            Jitter.NONE, Set.of()), Duration.ofSeconds(5)));

    @AfterEach
    void stopWorkers() {
        workers.forEach(worker -> worker.stop(Duration.ZERO));
    }


    RunningWorker start(String consumer, int concurrency) {
        return start(command(queue, consumer, concurrency, Optional.empty()));
    }

    RunningWorker start(RunWorkerUseCase.Command command) {
        return track(service(ledger, JobObserver.NONE).start(command));
    }

    WorkerService service(ExecutionLedger executionLedger, JobObserver observer) {
        JobOutcomes outcomes = executionLedger instanceof AtLeastOnceExecution ? JobOutcomes.NOT_RECORDED : ledger;
        return new WorkerService(transport, transport, executionLedger, outcomes, JobHandlers.of(handlers), settings,
                clock, () -> 0.5, observer, MaintenanceObserver.NONE, JobTracing.NONE);
    }

    /** The in-memory ledger, recording how many jobs each {@code executeAll} call gets. */
    ExecutionLedger recordingBatches(List<Integer> sizes) {
        return new ExecutionLedger() {
            @Override
            public LedgerOutcome execute(Execution execution, Effect effect) {
                return ledger.execute(execution, effect);
            }

            @Override
            public List<LedgerOutcome> executeAll(List<Step> steps) {
                sizes.add(steps.size());
                return ledger.executeAll(steps);
            }

            @Override
            public Optional<Completion> find(QueueName name, JobId id) {
                return ledger.find(name, id);
            }

            @Override
            public long countCompleted(QueueName name) {
                return ledger.countCompleted(name);
            }

            @Override
            public long forgetCompletedBefore(Instant cutoff) {
                return ledger.forgetCompletedBefore(cutoff);
            }
        };
    }

    void complete(String id) {
        Job done = Job.create(JobId.of(id), queue, "{}", clock.instant());
        ledger.execute(new ExecutionLedger.Execution(done, ConsumerName.of("earlier"), new DeliveryId("1-0"),
                1, clock.instant()), transaction -> Optional.empty());
    }

    RunningWorker track(RunningWorker worker) {
        workers.add(worker);
        return worker;
    }

    void enqueue(String id) {
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{\"id\":\"" + id + "\"}"));
    }

    AtomicInteger calls(String key) {
        return calls.computeIfAbsent(key, k -> new AtomicInteger());
    }

    JobHandler counting(String key) {
        return context -> {
            calls(key).incrementAndGet();
            return Optional.empty();
        };
    }

    StoredDeadLetter awaitDeadLetter() {
        Supplier<List<StoredDeadLetter>> letters = () -> transport.deadLetters(queue, Optional.empty(), 10);
        await().atMost(WAIT).until(() -> !letters.get().isEmpty());
        assertThat(letters.get()).hasSize(1);
        return letters.get().get(0);
    }

    boolean isDelayed(String id) {
        return transport.find(queue, JobId.of(id)).filter(JobSighting.Delayed.class::isInstance).isPresent();
    }

    Duration pendingIdle(String id) {
        return transport.find(queue, JobId.of(id))
                .map(sighting -> ((JobSighting.Pending) sighting).idle())
                .orElseThrow();
    }

    static RunWorkerUseCase.Command command(QueueName queue, String consumer, int concurrency,
                                                    Optional<String> handler) {
        return new RunWorkerUseCase.Command(List.of(queue), ConsumerName.of(consumer), concurrency, handler);
    }

    /** Counts what it hears, by event name. */
    static final class RecordingObserver implements JobObserver {
        final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        final List<Duration> waits = new CopyOnWriteArrayList<>();

        int count(String event) {
            return counts.getOrDefault(event, new AtomicInteger()).get();
        }

        void hear(String event) {
            counts.computeIfAbsent(event, e -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void jobStarted(Job job, Duration waited) {
            waits.add(waited);
            hear("started");
        }

        @Override
        public void jobCompleted(Job job, Duration processing) {
            hear("completed");
        }

        @Override
        public void duplicateSkipped(Job job, Completion earlier) {
            hear("duplicate");
            if (!earlier.isOf(job)) {
                hear("collision:" + job.type().orElse("") + "<>" + earlier.type().orElse(""));
            }
        }

        @Override
        public void jobFailed(Job job, JobError error) {
            hear("failed");
        }

        @Override
        public void jobRetried(Job job, Instant at) {
            hear("retried");
        }

        @Override
        public void jobDeadLettered(DeadLetter letter) {
            hear("dead:" + letter.reason());
        }
    }
}
