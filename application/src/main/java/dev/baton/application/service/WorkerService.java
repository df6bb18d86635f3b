package dev.baton.application.service;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.in.WorkerCounters;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.application.port.out.WorkerObserver;
import dev.baton.domain.AttemptOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.QueueName;
import dev.baton.domain.RandomSource;
import dev.baton.domain.RetryDecision;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs workers: each leases jobs from its queues as slots free up, runs them on a bounded pool with a per-attempt
 * timeout, commits their effect through the execution ledger and only then acknowledges them; failures are retried
 * or dead-lettered by the retry policy. Background loops extend the leases of running jobs, reclaim entries of
 * consumers that went silent (dead-lettering poison), promote due retries and trim the streams. No loop dies of one
 * bad job or one transport failure: it logs, pauses and goes on.
 *
 * <p>Exactly-once effects need a real ledger; with {@link AtLeastOnceExecution} a redelivered job runs again.
 */
public final class WorkerService implements RunWorkerUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerService.class);
    private static final int PROMOTE_BATCH = 500;
    private static final long FIRST_PAUSE_MILLIS = 100;
    private static final long MAX_PAUSE_MILLIS = 5_000;
    private static final Duration ABANDON_WAIT = Duration.ofSeconds(5);
    private static final Duration MIN_TIMEOUT_TICK = Duration.ofMillis(5);
    private static final Duration MAX_TIMEOUT_TICK = Duration.ofMillis(500);

    private final JobLeases leases;
    private final QueueMaintenance maintenance;
    private final ExecutionLedger ledger;
    private final JobHandlers handlers;
    private final WorkerSettings settings;
    private final Clock clock;
    private final RandomSource random;
    private final WorkerObserver observer;

    public WorkerService(JobLeases leases, QueueMaintenance maintenance, ExecutionLedger ledger, JobHandlers handlers,
                         WorkerSettings settings, Clock clock, RandomSource random, WorkerObserver observer) {
        this.leases = leases;
        this.maintenance = maintenance;
        this.ledger = ledger;
        this.handlers = handlers;
        this.settings = settings;
        this.clock = clock;
        this.random = random;
        this.observer = observer;
    }

    @Override
    public RunningWorker start(Command command) {
        Worker worker = new Worker(command);
        worker.start();
        return worker;
    }

    private final class Worker implements RunningWorker, Acknowledgements.Listener<Done> {
        private final List<QueueName> queues;
        private final ConsumerName consumer;
        private final Optional<String> defaultHandler;
        private final int concurrency;
        private final Duration blockPerQueue;
        private final Semaphore slots;
        private final Map<Key, InFlight> inFlight = new ConcurrentHashMap<>();
        private final Acknowledgements<Done> acknowledgements;
        private final ExecutorService jobs;
        private final ScheduledExecutorService timers;
        private final ScheduledExecutorService loops;
        private final Thread fetcher;
        private final AtomicBoolean accepting = new AtomicBoolean(true);
        private final AtomicBoolean recoveryDue = new AtomicBoolean();
        private final AtomicLong completed = new AtomicLong();
        private final AtomicLong duplicates = new AtomicLong();
        private final AtomicLong retried = new AtomicLong();
        private final AtomicLong deadLettered = new AtomicLong();
        private final AtomicLong reclaimed = new AtomicLong();
        private final AtomicLong leasesLost = new AtomicLong();
        private Integer abandoned;

        Worker(Command command) {
            this.queues = command.queues();
            this.consumer = command.consumer();
            this.defaultHandler = command.handler();
            this.concurrency = command.concurrency();
            // one worker blocks on its queues in turn: together they wait no longer than one block
            Duration split = settings.block().dividedBy(queues.size());
            this.blockPerQueue = split.isZero() ? Duration.ofMillis(1) : split;
            this.slots = new Semaphore(concurrency);
            String name = "baton-" + consumer;
            this.jobs = settings.jobThreads().executor(concurrency, settings.batchCommit(), name + "-job");
            this.timers = Executors.newSingleThreadScheduledExecutor(JobThreads.platformThreads(name + "-timeout"));
            // two threads, so that a slow reclaim or trim never delays the lease extension of running jobs
            this.loops = Executors.newScheduledThreadPool(2, JobThreads.platformThreads(name + "-loop"));
            this.fetcher = settings.jobThreads().threads(settings.batchCommit(), name + "-fetch").newThread(this::fetch);
            this.acknowledgements = new Acknowledgements<>(leases, this,
                    settings.jobThreads().threads(settings.batchCommit(), name + "-ack"));
        }

        void start() {
            fetcher.start();
            Duration tick = timeoutTick(settings.jobTimeout());
            schedule(timers, "deadline sweep", this::timeOutOverdue, tick, tick);
            schedule(loops, "promotion", this::promote, Duration.ZERO, settings.promoteInterval());
            schedule(loops, "lease extension", this::extendLeases, settings.extendInterval(),
                    settings.extendInterval());
            schedule(loops, "recovery", () -> recoveryDue.set(true), settings.recoveryInterval(),
                    settings.recoveryInterval());
            schedule(loops, "housekeeping", this::houseKeep, settings.trimInterval(), settings.trimInterval());
            LOG.info("worker started consumer={} queues={} concurrency={} threads={} lease={} jobTimeout={}"
                    + " maxAttempts={}", consumer, queues, concurrency, settings.runsJobsOn().label(),
                    settings.lease(), settings.jobTimeout(), settings.retryPolicy().maxAttempts());
        }

        // ---- leasing ------------------------------------------------------------------------------------------

        private void fetch() {
            try {
                for (QueueName queue : queues) {
                    retrying("declare " + queue, () -> leases.declare(queue));
                }
                for (QueueName queue : queues) {
                    resumeOwnPending(queue);
                }
                long pause = FIRST_PAUSE_MILLIS;
                for (int turn = 0; accepting.get(); turn++) {
                    int wanted = acquireSlots();
                    // abandoned work first; reclaiming here, with the slots in hand, cannot starve behind the lease
                    if (recoveryDue.getAndSet(false)) {
                        wanted -= recover(wanted);
                    }
                    if (wanted == 0) {
                        continue;
                    }
                    QueueName queue = queues.get(turn % queues.size());
                    try {
                        List<Delivery> leased = leases.lease(queue, consumer, wanted, blockPerQueue);
                        slots.release(wanted - leased.size());
                        dispatch(leased);
                        pause = FIRST_PAUSE_MILLIS;
                    } catch (RuntimeException e) {
                        slots.release(wanted);
                        if (!accepting.get()) {
                            break; // a graceful stop interrupted the blocking read: not a failure
                        }
                        LOG.warn("lease failed, retrying in {} ms consumer={} queue={}: {}", pause, consumer, queue,
                                e.toString());
                        Thread.sleep(pause);
                        pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Waits for one free slot, then takes every other free one: the most this worker may lease now. */
        private int acquireSlots() throws InterruptedException {
            slots.acquire();
            return 1 + takeFreeSlots(concurrency - 1);
        }

        private int takeFreeSlots(int max) {
            int taken = 0;
            while (taken < max && slots.tryAcquire()) {
                taken++;
            }
            return taken;
        }

        /** Runs what this consumer held when it last stopped, before leasing anything new. */
        private void resumeOwnPending(QueueName queue) throws InterruptedException {
            List<Delivery> own = new ArrayList<>();
            retrying("resume pending of " + queue, () -> own.addAll(leases.leaseOwnPending(queue, consumer,
                    concurrency)));
            if (!own.isEmpty()) {
                LOG.info("resuming own pending entries consumer={} queue={} count={}", consumer, queue, own.size());
            }
            for (Delivery delivery : own) {
                slots.acquire();
                dispatch(List.of(delivery));
            }
        }

        private void retrying(String what, Runnable action) throws InterruptedException {
            long pause = FIRST_PAUSE_MILLIS;
            while (accepting.get()) {
                try {
                    action.run();
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("{} failed, retrying in {} ms consumer={}: {}", what, pause, consumer, e.toString());
                    Thread.sleep(pause);
                    pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
                }
            }
        }

        /**
         * Hands leased deliveries, each holding one slot, to the job pool: one task per delivery, or per batch of up
         * to {@code batchCommit} deliveries that commit in one ledger transaction.
         */
        private void dispatch(List<Delivery> deliveries) {
            List<InFlight> batch = new ArrayList<>(Math.min(deliveries.size(), settings.batchCommit()));
            for (Delivery delivery : deliveries) {
                InFlight flight = new InFlight(delivery);
                if (inFlight.putIfAbsent(flight.key, flight) != null) {
                    slots.release(); // reclaimed our own running job: it is already being handled
                    continue;
                }
                batch.add(flight);
                if (batch.size() == settings.batchCommit()) {
                    submit(batch);
                    batch = new ArrayList<>(settings.batchCommit());
                }
            }
            if (!batch.isEmpty()) {
                submit(batch);
            }
        }

        private void submit(List<InFlight> batch) {
            try {
                jobs.execute(() -> process(batch));
            } catch (RejectedExecutionException e) {
                for (InFlight flight : batch) { // stopping: the entries stay pending for the next consumer
                    inFlight.remove(flight.key);
                    slots.release();
                }
            }
        }

        // ---- running deliveries ------------------------------------------------------------------------------

        private void process(List<InFlight> batch) {
            try {
                List<Ready> ready = new ArrayList<>(batch.size());
                for (InFlight flight : batch) {
                    try {
                        prepare(flight).ifPresent(ready::add);
                    } catch (RuntimeException e) {
                        leftPending(flight, e);
                    }
                }
                if (!ready.isEmpty()) {
                    run(ready);
                }
            } catch (Throwable e) {
                // never lose an entry: what was not finished stays pending and comes back after the lease
                LOG.warn("could not finish deliveries, left pending for redelivery consumer={} count={}", consumer,
                        batch.size(), e);
            } finally {
                // what was handed over for acknowledgement is released once acknowledged
                release(batch.stream().filter(flight -> !flight.acknowledging).toList());
            }
        }

        /** Frees the slots all at once, so that the fetcher leases (and batches) them together, not one by one. */
        private void release(List<InFlight> flights) {
            flights.forEach(flight -> inFlight.remove(flight.key));
            slots.release(flights.size());
        }

        private void leftPending(InFlight flight, Throwable e) {
            LOG.warn("could not finish delivery, left pending for redelivery consumer={} queue={} delivery={}",
                    consumer, flight.delivery.queue(), flight.delivery.id(), e);
        }

        /** Finishes poison, malformed and handler-less deliveries at once; the rest are ready to run. */
        private Optional<Ready> prepare(InFlight flight) {
            Delivery delivery = flight.delivery;
            if (settings.deliveryLimit().exceededBy(delivery.deliveryCount())) {
                // a job that committed before its worker died (between commit and XACK) is done, not poison
                if (delivery instanceof Delivery.Leased leased && ledger.find(leased.job().id()).isPresent()) {
                    acknowledgeCompleted(leased, flight);
                } else {
                    deadLetterPoison(flight);
                }
                return Optional.empty();
            }
            if (delivery instanceof Delivery.Malformed malformed) {
                LOG.warn("malformed entry dead-lettered queue={} delivery={} problem={}", malformed.queue(),
                        malformed.id(), malformed.problem());
                deadLetter(flight, DeadLetter.malformed(malformed.queue(), malformed.fields(),
                        malformed.problem(), clock.instant()));
                return Optional.empty();
            }
            Delivery.Leased leased = (Delivery.Leased) delivery;
            List<String> candidates = handlerNames(leased.job());
            Optional<JobHandler> handler = candidates.stream().map(handlers::find).flatMap(Optional::stream)
                    .findFirst();
            if (handler.isEmpty()) {
                fail(leased, flight, JobError.permanent("no-handler", "no handler named "
                        + String.join(" or ", candidates)));
                return Optional.empty();
            }
            return Optional.of(new Ready(leased, flight, handler.get()));
        }

        /**
         * Runs the jobs one after the other in one ledger call, sharing one deadline; then hands what committed over
         * for acknowledgement (after the commit, never before) and retries or dead-letters what failed, job by job.
         */
        private void run(List<Ready> batch) {
            Instant started = clock.instant();
            Instant deadline = started.plus(settings.jobTimeout());
            List<ExecutionLedger.Step> steps = new ArrayList<>(batch.size());
            for (Ready ready : batch) {
                Job job = ready.delivery.job();
                Duration waited = Duration.between(job.enqueuedAt(), started);
                observer.jobStarted(job, waited.isNegative() ? Duration.ZERO : waited);
                LOG.debug("job started queue={} job={} attempt={} delivery={}", job.queue(), job.id(),
                        job.currentAttempt(), ready.delivery.id());
                ExecutionLedger.Execution execution = new ExecutionLedger.Execution(job, consumer,
                        ready.delivery.id(), ready.delivery.deliveryCount(), deadline);
                steps.add(new ExecutionLedger.Step(execution, transaction -> ready.flight.runHandler(ready.handler,
                        new Context(job, job.currentAttempt(), consumer, deadline, transaction))));
            }
            long timeoutAt = System.nanoTime() + settings.jobTimeout().toNanos();
            batch.forEach(ready -> ready.flight.timeoutAt = timeoutAt);
            List<LedgerOutcome> outcomes;
            try {
                outcomes = ledger.executeAll(steps);
            } finally {
                batch.forEach(ready -> ready.flight.timeoutAt = InFlight.NOT_RUNNING);
            }
            if (outcomes.get(0) instanceof LedgerOutcome.Unknown unknown) {
                LOG.warn("ledger unavailable, jobs left pending for redelivery consumer={} count={} first job={}: {}",
                        consumer, batch.size(), batch.get(0).delivery.job().id(), unknown.failure().toString());
                return;
            }
            Duration took = Duration.between(started, clock.instant());
            List<Done> done = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                Ready ready = batch.get(i);
                if (outcomes.get(i) instanceof LedgerOutcome.EffectFailed failed) {
                    failOrLeavePending(ready, failed.cause());
                } else if (ready.flight.beginFinish()) {
                    done.add(new Done(ready, outcomes.get(i), took));
                }
            }
            acknowledgements.acknowledge(done);
            done.forEach(finished -> finished.ready.flight.acknowledging = true);
        }

        private void failOrLeavePending(Ready ready, Throwable failure) {
            try {
                fail(ready.delivery, ready.flight, errorOf(ready.flight, failure));
            } catch (RuntimeException e) {
                leftPending(ready.flight, e);
            }
        }

        @Override
        public void acknowledged(List<Done> finished) {
            for (Done one : finished) {
                Job job = one.ready.delivery.job();
                if (one.outcome instanceof LedgerOutcome.Committed) {
                    completed.incrementAndGet();
                    observer.jobCompleted(job, one.took);
                    LOG.debug("job completed queue={} job={} delivery={}", job.queue(), job.id(), one.id());
                } else {
                    skippedAsCompleted(one.ready.delivery);
                }
            }
            release(finished.stream().map(one -> one.ready.flight).toList());
        }

        @Override
        public void notAcknowledged(List<Done> finished, RuntimeException failure) {
            // committed, so a redelivery finds the completion (exactly-once) or runs again (at-least-once)
            LOG.warn("could not acknowledge, left pending for redelivery consumer={} count={} first delivery={}: {}",
                    consumer, finished.size(), finished.get(0).id(), failure.toString());
            release(finished.stream().map(one -> one.ready.flight).toList());
        }

        /**
         * A typed job runs only under the handler of its type: falling back to the queue's handler would run a
         * {@code refund} as an {@code order}. An untyped job runs under the worker's handler, else the queue's.
         */
        private List<String> handlerNames(Job job) {
            if (job.type().isPresent()) {
                return List.of(job.type().get());
            }
            List<String> names = new ArrayList<>(2);
            defaultHandler.ifPresent(names::add);
            names.add(job.queue().value());
            return names.stream().distinct().toList();
        }

        private JobError errorOf(InFlight flight, Throwable failure) {
            if (flight.timedOut()) {
                return new AttemptOutcome.TimedOut(settings.jobTimeout()).asError();
            }
            return JobError.of(failure, !(failure instanceof NonRetryableException));
        }

        private void fail(Delivery.Leased delivery, InFlight flight, JobError error) {
            Job job = delivery.job();
            if (!flight.beginFinish()) {
                return;
            }
            observer.jobFailed(job, error);
            Instant now = clock.instant();
            RetryDecision decision = settings.retryPolicy().decide(job, error, now, random);
            if (decision instanceof RetryDecision.RetryAt retry) {
                leases.retryLater(delivery, job.retriedAfter(error, retry.at()));
                retried.incrementAndGet();
                observer.jobRetried(job, retry.at());
                LOG.debug("job failed, retry at {} queue={} job={} attempt={} error={}", retry.at(), job.queue(),
                        job.id(), job.currentAttempt(), error.type());
            } else {
                DeadLetterReason reason = ((RetryDecision.DeadLetterNow) decision).reason();
                LOG.debug("job failed for good queue={} job={} attempt={} reason={} error={}", job.queue(), job.id(),
                        job.currentAttempt(), reason, error.type());
                finishDead(delivery, DeadLetter.of(job, reason, error, job.currentAttempt(), now));
            }
        }

        private void acknowledgeCompleted(Delivery.Leased delivery, InFlight flight) {
            if (flight.beginFinish()) {
                leases.acknowledge(delivery.queue(), List.of(delivery.id()));
                skippedAsCompleted(delivery);
            }
        }

        private void skippedAsCompleted(Delivery.Leased delivery) {
            Job job = delivery.job();
            duplicates.incrementAndGet();
            observer.duplicateSkipped(job);
            LOG.debug("job already completed, acknowledged without committing again queue={} job={} delivery={}",
                    job.queue(), job.id(), delivery.id());
        }

        private void deadLetterPoison(InFlight flight) {
            Delivery delivery = flight.delivery;
            String problem = "delivered " + delivery.deliveryCount() + " times without finishing, more than the limit"
                    + " of " + settings.deliveryLimit().maxDeliveries();
            LOG.warn("poison entry dead-lettered queue={} delivery={} deliveries={}", delivery.queue(), delivery.id(),
                    delivery.deliveryCount());
            Instant now = clock.instant();
            deadLetter(flight, delivery instanceof Delivery.Leased leased
                    ? DeadLetter.of(leased.job(), DeadLetterReason.POISON, JobError.permanent("poison", problem),
                    (int) Math.min(delivery.deliveryCount(), Integer.MAX_VALUE), now)
                    : DeadLetter.malformed(delivery.queue(), ((Delivery.Malformed) delivery).fields(), problem, now));
        }

        private void deadLetter(InFlight flight, DeadLetter letter) {
            if (flight.beginFinish()) {
                finishDead(flight.delivery, letter);
            }
        }

        private void finishDead(Delivery delivery, DeadLetter letter) {
            leases.deadLetter(delivery, letter);
            deadLettered.incrementAndGet();
            observer.jobDeadLettered(delivery.queue(), letter.reason());
        }

        /**
         * Times out the attempts past their deadline: a sweep over the running jobs instead of a timer per attempt,
         * which cost a fast worker more than its jobs did. The jobs of one batch share a deadline, so they are all
         * marked before any is interrupted, and none starts its handler after the running one was interrupted.
         */
        private void timeOutOverdue() {
            long now = System.nanoTime();
            List<InFlight> overdue = inFlight.values().stream().filter(flight -> flight.overdueAt(now)).toList();
            overdue.forEach(InFlight::timeOut);
            overdue.forEach(InFlight::interruptHandler);
        }

        // ---- background loops --------------------------------------------------------------------------------

        private void schedule(ScheduledExecutorService on, String name, Runnable loop, Duration initialDelay,
                              Duration interval) {
            on.scheduleWithFixedDelay(() -> {
                try {
                    loop.run();
                } catch (RuntimeException e) {
                    // a scheduled task that throws is never run again: this loop must outlive any failure
                    LOG.warn("{} failed, retrying in {} consumer={}: {}", name, interval, consumer, e.toString());
                }
            }, initialDelay.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
        }

        private void promote() {
            if (!accepting.get()) {
                return;
            }
            Instant now = clock.instant();
            for (QueueName queue : queues) {
                while (maintenance.promoteDue(queue, now, PROMOTE_BATCH) == PROMOTE_BATCH) {
                    LOG.debug("promoted a full batch, promoting more queue={}", queue);
                }
            }
        }

        /** Runs while jobs finish during a graceful stop too: leases must outlive the grace period. */
        private void extendLeases() {
            Map<QueueName, List<DeliveryId>> running = inFlight.keySet().stream()
                    .collect(Collectors.groupingBy(Key::queue, Collectors.mapping(Key::id, Collectors.toList())));
            running.forEach((queue, ids) -> {
                Set<DeliveryId> lost = leases.extendLeases(queue, consumer, ids);
                for (DeliveryId id : lost) {
                    InFlight flight = inFlight.get(new Key(queue, id));
                    if (flight != null && flight.loseLease()) {
                        leasesLost.incrementAndGet();
                        observer.leaseLost(queue, id);
                        LOG.warn("lease lost, another consumer owns the job now; its outcome here will not be "
                                + "acknowledged consumer={} queue={} delivery={}", consumer, queue, id);
                    }
                }
            });
        }

        /**
         * Takes over entries of silent consumers into {@code available} held slots, dead-lettering poison on the way.
         *
         * @return how many of the slots now belong to reclaimed deliveries
         */
        private int recover(int available) {
            int used = 0;
            for (QueueName queue : queues) {
                if (used == available) {
                    break;
                }
                try {
                    Reclaimed taken = maintenance.reclaimAbandoned(queue, consumer, settings.lease(), available - used);
                    if (!taken.vanished().isEmpty()) {
                        observer.vanished(queue, taken.vanished().size());
                        LOG.warn("pending entries had lost their data and were dropped consumer={} queue={} ids={}",
                                consumer, queue, taken.vanished());
                    }
                    if (!taken.deliveries().isEmpty()) {
                        used += taken.deliveries().size();
                        reclaimed.addAndGet(taken.deliveries().size());
                        observer.reclaimed(queue, taken.deliveries().size());
                        LOG.info("reclaimed abandoned entries consumer={} queue={} count={}", consumer, queue,
                                taken.deliveries().size());
                        dispatch(taken.deliveries());
                    }
                } catch (RuntimeException e) {
                    LOG.warn("reclaim failed, retrying in {} consumer={} queue={}: {}", settings.recoveryInterval(),
                            consumer, queue, e.toString());
                }
            }
            return used;
        }

        private void houseKeep() {
            if (!accepting.get()) {
                return;
            }
            for (QueueName queue : queues) {
                TrimOutcome trimmed = maintenance.trim(queue, settings.retention(), clock.instant());
                observer.trimmed(queue, trimmed);
                LOG.debug("trimmed queue={} removed={} heldBack={}", queue, trimmed.removed(), trimmed.heldBack());
                List<ConsumerName> removed = maintenance.removeIdleConsumers(queue, settings.consumerIdleRemoval());
                if (!removed.isEmpty()) {
                    LOG.info("removed idle consumers queue={} consumers={}", queue, removed);
                }
            }
        }

        // ---- stopping ----------------------------------------------------------------------------------------

        @Override
        public synchronized int stop(Duration grace) {
            if (abandoned != null) {
                return abandoned;
            }
            LOG.info("worker stopping consumer={} running={} grace={}", consumer, inFlight.size(), grace);
            accepting.set(false);
            fetcher.interrupt();
            int left = 0;
            try {
                fetcher.join(); // its last lease is still dispatched and gets the grace period like the others
                jobs.shutdown();
                if (!jobs.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
                    left = (int) List.copyOf(inFlight.values()).stream().filter(InFlight::abandon).count();
                    jobs.shutdownNow();
                    if (!jobs.awaitTermination(ABANDON_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                        LOG.warn("some handlers ignore interruption; their threads are left behind consumer={}",
                                consumer);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                left = (int) List.copyOf(inFlight.values()).stream().filter(InFlight::abandon).count();
                jobs.shutdownNow();
            }
            try {
                acknowledgements.close(ABANDON_WAIT); // what finished in the grace period is acknowledged now
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            loops.shutdownNow();
            timers.shutdownNow();
            inFlight.clear();
            abandoned = left;
            LOG.info("worker stopped consumer={} abandoned={} completed={}", consumer, left, completed.get());
            return left;
        }

        @Override
        public boolean isRunning() {
            return accepting.get();
        }

        @Override
        public WorkerCounters counters() {
            return new WorkerCounters(completed.get(), duplicates.get(), retried.get(), deadLettered.get(),
                    reclaimed.get(), leasesLost.get(), inFlight.size());
        }

        @Override
        public void close() {
            stop(settings.grace());
        }
    }

    /** How often running attempts are checked against their deadline: a fiftieth of it, within 5 ms..500 ms. */
    static Duration timeoutTick(Duration jobTimeout) {
        Duration tick = jobTimeout.dividedBy(50);
        return tick.compareTo(MIN_TIMEOUT_TICK) < 0 ? MIN_TIMEOUT_TICK
                : tick.compareTo(MAX_TIMEOUT_TICK) > 0 ? MAX_TIMEOUT_TICK : tick;
    }

    private record Key(QueueName queue, DeliveryId id) {
    }

    /** A leased job that passed the checks, with the handler that runs it. */
    private record Ready(Delivery.Leased delivery, InFlight flight, JobHandler handler) {
    }

    /** A job whose outcome the ledger recorded, to be acknowledged. */
    private record Done(Ready ready, LedgerOutcome outcome, Duration took) implements Acknowledgements.Finished {
        @Override
        public QueueName queue() {
            return ready.delivery.queue();
        }

        @Override
        public DeliveryId id() {
            return ready.delivery.id();
        }
    }

    /**
     * One delivery this worker holds. Guards the handler's thread, so that a timeout or an abandonment interrupts
     * only while the handler runs, and decides once whether the outcome may still be recorded: not after the lease
     * was lost to another consumer or the job was abandoned at stop.
     */
    private static final class InFlight {
        static final long NOT_RUNNING = Long.MAX_VALUE;
        final Delivery delivery;
        final Key key;
        private Thread runner;
        private boolean inHandler;
        private boolean timedOut;
        private boolean interruptedAtDeadline;
        private boolean leaseLost;
        private boolean abandoned;
        private boolean finishing;
        /** Handed over for acknowledgement, which releases it; only the job's own thread reads and writes this. */
        boolean acknowledging;
        /** The {@link System#nanoTime()} at which the running attempt times out. */
        volatile long timeoutAt = NOT_RUNNING;

        InFlight(Delivery delivery) {
            this.delivery = delivery;
            this.key = new Key(delivery.queue(), delivery.id());
        }

        Optional<String> runHandler(JobHandler handler, JobContext context) throws Exception {
            synchronized (this) {
                // the deadline may pass while the ledger waits for another attempt of the same job to end
                if (timedOut || abandoned) {
                    throw new AttemptCancelled(timedOut ? "the deadline passed before the handler started"
                            : "the worker is stopping");
                }
                runner = Thread.currentThread();
                inHandler = true;
            }
            Optional<String> result;
            try {
                result = handler.handle(context);
            } finally {
                synchronized (this) {
                    inHandler = false;
                }
                Thread.interrupted(); // a deadline's interrupt must not leak into the commit or the next job
            }
            synchronized (this) {
                // roll the effect back: an attempt past its deadline, or abandoned at stop, must not commit
                if (timedOut || abandoned) {
                    throw new AttemptCancelled(timedOut ? "the attempt ran past its deadline" : "the worker stopped");
                }
            }
            return Objects.requireNonNullElse(result, Optional.empty());
        }

        boolean overdueAt(long nanoTime) {
            long at = timeoutAt;
            return at != NOT_RUNNING && nanoTime - at >= 0;
        }

        /** Marks the attempt as past its deadline: its handler may no longer start, and its effect not commit. */
        synchronized void timeOut() {
            timedOut = true;
        }

        /** Interrupts the handler of an attempt past its deadline, if it is still running. */
        synchronized void interruptHandler() {
            if (inHandler) {
                interruptedAtDeadline = true;
                runner.interrupt();
            }
        }

        synchronized boolean interruptedAtDeadline() {
            return interruptedAtDeadline;
        }

        synchronized boolean timedOut() {
            return timedOut;
        }

        /** @return true when this call marked the lease lost (not already finishing, not marked before) */
        synchronized boolean loseLease() {
            if (finishing || leaseLost) {
                return false;
            }
            leaseLost = true;
            return true;
        }

        /** @return true when this call abandoned the job (it was not already finishing) */
        synchronized boolean abandon() {
            if (finishing) {
                return false;
            }
            abandoned = true;
            if (inHandler) {
                runner.interrupt();
            }
            return true;
        }

        /** @return true when the outcome may be recorded; from now on the job can be neither lost nor abandoned */
        synchronized boolean beginFinish() {
            if (leaseLost || abandoned) {
                return false;
            }
            finishing = true;
            return true;
        }
    }

    /** Thrown inside the effect to roll it back when the attempt was cut short. */
    private static final class AttemptCancelled extends Exception {
        AttemptCancelled(String message) {
            super(message);
        }
    }

    private record Context(Job job, int attempt, ConsumerName consumer, Instant deadline,
                           LedgerTransaction transaction) implements JobContext {
        @Override
        public <T> T unwrap(Class<T> type) {
            return transaction.unwrap(type);
        }
    }
}
