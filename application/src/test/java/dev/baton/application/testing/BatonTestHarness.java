package dev.baton.application.testing;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.worker.InlineWorker;
import dev.baton.application.service.worker.WorkerService;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.Jitter;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * Runs your handlers in a unit test, on the in-memory adapters and a clock of the test's own: enqueue jobs,
 * {@link #drain()}, then assert. A drain runs the worker's own path for every delivery (triage, the ledger's
 * execution, the retry policy, the dead letters, the acknowledgement) on the calling thread, and returns once the
 * queues are empty: no sleeps and no polling in the test. See docs/HANDLERS.md, "Testing your handlers".
 *
 * <p>A handler's transactional writes go through {@code context.unwrap(InMemoryEffects.class)} and commit with the
 * completion ({@link #committedEffects()}); the in-memory ledger offers no JDBC connection. The job timeout is not
 * enforced: the handler runs on the test's thread, which nothing interrupts. Not thread-safe: drive it from the test.
 */
public final class BatonTestHarness {
    /** Where the clock starts unless {@link Builder#startingAt} says otherwise. */
    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    /** {@link RetryPolicy#DEFAULT} without jitter: five attempts, the retries due 1, 2, 4 and 8 seconds after. */
    public static final RetryPolicy RETRY_POLICY = new RetryPolicy(RetryPolicy.DEFAULT.maxAttempts(),
            RetryPolicy.DEFAULT.backoff(), Jitter.NONE, Set.of());
    private static final ConsumerName CONSUMER = ConsumerName.of("test-harness");
    /** Deliveries leased per queue and pass; they run one after the other, in stream order. */
    private static final int PER_PASS = 100;
    /** A drain this long is a loop: handlers that enqueue without end, say. */
    private static final int MAX_PASSES = 10_000;
    private static final int PAGE = 1_000;

    private final MutableClock clock;
    private final InMemoryStreamTransport transport;
    private final InMemoryExecutionLedger ledger;
    private final Recorder recorder = new Recorder();
    private final EnqueueService enqueue;
    private final WorkerService workers;
    private final Set<QueueName> queues = new CopyOnWriteArraySet<>();
    private final Map<QueueName, DeadLetterId> lastDeadLetter = new HashMap<>();

    private BatonTestHarness(Builder builder) {
        this.clock = MutableClock.at(builder.start);
        this.transport = new InMemoryStreamTransport(clock);
        this.ledger = new InMemoryExecutionLedger(clock);
        this.enqueue = new EnqueueService(transport, clock, PayloadLimit.DEFAULT, recorder);
        this.workers = new WorkerService(transport, transport, ledger, ledger, JobHandlers.of(builder.handlers),
                WorkerSettings.DEFAULTS.with(Retries.DEFAULT.withRetryPolicy(builder.retryPolicy)), clock,
                () -> 0.0, recorder, MaintenanceObserver.NONE, JobTracing.NONE);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Enqueues through the real enqueue service, stamped with the harness's clock. */
    public Job enqueue(EnqueueJobUseCase.Command command) {
        return enqueue.enqueue(command);
    }

    /** The enqueue use case, for producer code under test; jobs it enqueues are drained like the others. */
    public EnqueueJobUseCase enqueuer() {
        return enqueue;
    }

    /** Appends an entry with these fields verbatim, job or not, as a producer in another language might. */
    public void appendRaw(QueueName queue, Map<String, String> fields) {
        queues.add(queue);
        transport.appendRaw(queue, fields);
    }

    /**
     * Runs every job that is due, then moves the clock to the next due retry or scheduled job and runs that, until
     * nothing waits in the streams or in the delayed sets. Jobs that handlers enqueue meanwhile run too.
     */
    public Drained drain() {
        return drain(true);
    }

    /** Runs every job due at the clock's time, without moving the clock: retries scheduled later stay delayed. */
    public Drained drainDue() {
        return drain(false);
    }

    /** Moves the clock forward; a {@link #drainDue()} then runs what became due. @return the new time */
    public Instant advance(Duration duration) {
        return clock.advance(duration);
    }

    public MutableClock clock() {
        return clock;
    }

    /** The completion the ledger recorded for the job {@code job} of {@code queue}: its result, attempt and time. */
    public Optional<Completion> completion(QueueName queue, JobId job) {
        return ledger.find(queue, job);
    }

    /** What handlers wrote through {@code context.unwrap(InMemoryEffects.class)} and committed. */
    public Map<String, String> committedEffects() {
        return ledger.committedEffects();
    }

    /** Every dead letter of a queue, oldest first. */
    public List<DeadLetter> deadLetters(QueueName queue) {
        return deadLettersAfter(queue, Optional.empty());
    }

    /** The transport, for what the harness does not offer: stats, raw entries, test hooks. */
    public InMemoryStreamTransport transport() {
        return transport;
    }

    /** The ledger, for its test hooks. */
    public InMemoryExecutionLedger ledger() {
        return ledger;
    }

    private Drained drain(boolean followTheClock) {
        recorder.clear();
        List<QueueName> served = List.of();
        InlineWorker worker = null;
        for (int pass = 0; !queues.isEmpty(); pass++) {
            if (pass == MAX_PASSES) {
                throw new IllegalStateException("the queues did not drain in " + MAX_PASSES
                        + " passes: do handlers enqueue jobs without end?");
            }
            if (!served.equals(List.copyOf(queues))) { // a handler enqueued to a queue of its own
                served = List.copyOf(queues);
                worker = workers.inline(new RunWorkerUseCase.Command(served, CONSUMER, PER_PASS, Optional.empty()));
            }
            worker.promoteDue();
            if (worker.runOnce() > 0) {
                continue;
            }
            Optional<Instant> next = followTheClock ? nextDue(served) : Optional.empty();
            if (next.isEmpty()) {
                break;
            }
            clock.set(next.get());
        }
        return new Drained(recorder.completed(), recorder.retried(), recorder.snoozed(), newDeadLetters());
    }

    private Optional<Instant> nextDue(List<QueueName> served) {
        return served.stream().map(transport::nextDue).flatMap(Optional::stream).min(Instant::compareTo);
    }

    private List<DeadLetter> newDeadLetters() {
        List<DeadLetter> letters = new ArrayList<>();
        for (QueueName queue : queues) {
            letters.addAll(deadLettersAfter(queue, Optional.ofNullable(lastDeadLetter.get(queue))));
        }
        return letters;
    }

    private List<DeadLetter> deadLettersAfter(QueueName queue, Optional<DeadLetterId> after) {
        List<DeadLetter> letters = new ArrayList<>();
        Optional<DeadLetterId> from = after;
        for (List<StoredDeadLetter> page = transport.deadLetters(queue, from, PAGE); !page.isEmpty();
             page = transport.deadLetters(queue, from, PAGE)) {
            page.forEach(stored -> letters.add(stored.letter()));
            from = Optional.of(page.get(page.size() - 1).id());
        }
        from.ifPresent(last -> lastDeadLetter.merge(queue, last, (seen, newer) -> newer));
        return letters;
    }

    /** Hears the enqueue service (which queues to serve) and the worker (what became of each delivery). */
    private final class Recorder implements JobObserver {
        private final List<Job> completed = new ArrayList<>();
        private final List<Job> retried = new ArrayList<>();
        private final List<Job> snoozed = new ArrayList<>();

        synchronized void clear() {
            completed.clear();
            retried.clear();
            snoozed.clear();
        }

        synchronized List<Job> completed() {
            return List.copyOf(completed);
        }

        synchronized List<Job> retried() {
            return List.copyOf(retried);
        }

        synchronized List<Job> snoozed() {
            return List.copyOf(snoozed);
        }

        @Override
        public void jobEnqueued(Job job) {
            queues.add(job.queue());
        }

        @Override
        public synchronized void jobCompleted(Job job, Duration processing) {
            completed.add(job);
        }

        @Override
        public synchronized void jobRetried(Job job, Instant at) {
            retried.add(job);
        }

        @Override
        public synchronized void jobSnoozed(Job job, Instant at) {
            snoozed.add(job);
        }
    }

    /** The handlers to run and how failures are retried. */
    public static final class Builder {
        private final Map<String, JobHandler> handlers = new HashMap<>();
        private RetryPolicy retryPolicy = RETRY_POLICY;
        private Instant start = START;

        private Builder() {
        }

        /** A handler under its own name: it runs the jobs of that type, or of the queue of that name. */
        public Builder handler(NamedJobHandler handler) {
            return handler(handler.name(), handler);
        }

        /** A handler under a name of your choice. */
        public Builder handler(String name, JobHandler handler) {
            Objects.requireNonNull(handler, "handler");
            if (handlers.putIfAbsent(Objects.requireNonNull(name, "name"), handler) != null) {
                throw new IllegalArgumentException("two handlers named " + name);
            }
            return this;
        }

        /** How failures are retried; {@link #RETRY_POLICY} unless set. */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "retry policy");
            return this;
        }

        /** Where the clock starts; {@link #START} unless set. */
        public Builder startingAt(Instant instant) {
            this.start = Objects.requireNonNull(instant, "start");
            return this;
        }

        public BatonTestHarness build() {
            return new BatonTestHarness(this);
        }
    }
}
