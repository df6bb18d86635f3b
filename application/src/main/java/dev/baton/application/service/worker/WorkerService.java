package dev.baton.application.service.worker;

import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.service.worker.WorkerSettings.Dispatching;
import dev.baton.application.service.worker.WorkerSettings.Housekeeping;
import dev.baton.application.service.worker.WorkerSettings.Leasing;
import dev.baton.application.service.worker.WorkerSettings.Retries;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.RandomSource;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs workers: each leases jobs from its queues as slots free up, runs them on a bounded pool with a per-attempt
 * timeout, commits their effect through the execution ledger and only then acknowledges them; failures are retried
 * or dead-lettered by the retry policy. Background loops extend the leases of running jobs, reclaim entries of
 * consumers that went silent (dead-lettering poison), promote due retries and trim the streams. No loop dies of one
 * bad job or one transport failure: it logs, pauses and goes on.
 *
 * <p>This class puts one worker together from its rooms; see docs/ARCHITECTURE.md for the path of a delivery through
 * them. Exactly-once effects need a real ledger; with {@code AtLeastOnceExecution} a redelivered job runs again.
 */
public final class WorkerService implements RunWorkerUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerService.class);

    private final JobLeases leases;
    private final QueueMaintenance maintenance;
    private final ExecutionLedger ledger;
    private final JobOutcomes outcomes;
    private final JobHandlers handlers;
    private final WorkerSettings settings;
    private final Clock clock;
    private final RandomSource random;
    private final JobObserver jobObserver;
    private final MaintenanceObserver maintenanceObserver;
    private final JobTracing tracing;

    /**
     * @param outcomes the ledger's record of dead letters: {@link JobOutcomes#NOT_RECORDED} without a ledger
     * @param tracing  traces every attempt, in the trace its job carries
     */
    public WorkerService(JobLeases leases, QueueMaintenance maintenance, ExecutionLedger ledger, JobOutcomes outcomes,
                         JobHandlers handlers, WorkerSettings settings, Clock clock, RandomSource random,
                         JobObserver jobObserver, MaintenanceObserver maintenanceObserver, JobTracing tracing) {
        this.leases = leases;
        this.maintenance = maintenance;
        this.ledger = ledger;
        this.outcomes = outcomes;
        this.handlers = handlers;
        this.settings = settings;
        this.clock = clock;
        this.random = random;
        this.jobObserver = jobObserver;
        this.maintenanceObserver = maintenanceObserver;
        this.tracing = tracing;
    }

    @Override
    public RunningWorker start(Command command) {
        ConsumerClaim claim = ConsumerClaim.claim(maintenance, command.consumer(), command.queues());
        ConsumerName consumer = claim.name();
        Leasing leasing = settings.leasing();
        Dispatching dispatching = settings.dispatching();
        Housekeeping housekeeping = settings.housekeeping();
        WorkerThreads threads = new WorkerThreads(dispatching.jobThreads(), dispatching.batchCommit(),
                "baton-" + consumer);
        CountingObserver counting = new CountingObserver(jobObserver, maintenanceObserver);
        InFlight inFlight = new InFlight(command.concurrency());

        Acknowledgements<HandedOver> acknowledgements = new Acknowledgements<>(leases,
                new AcknowledgedHandOvers(inFlight, counting, consumer), threads.ofJobKind("ack"));
        CancelMarks marks = new CancelMarks(leases);
        LedgerOutage ledgerOutage = new LedgerOutage(ledger, consumer);
        Suspects suspects = suspects(inFlight, consumer, counting);
        Processor processor = processor(command, consumer, acknowledgements, inFlight, suspects, counting,
                ledgerOutage);
        ExecutorService jobs = threads.jobs(command.concurrency());
        LeaseAhead ahead = LeaseAhead.forWorker(command.concurrency(), dispatching.batchCommit());
        Dispatcher dispatcher = new Dispatcher(inFlight, marks,
                WorkerSettings.jobsPerTransaction(command.concurrency(), dispatching.batchCommit()),
                WorkerSettings.transactionsAtOnce(command.concurrency(), dispatching.batchCommit()), jobs,
                processor::process, ahead);

        PausedQueues pauses = new PausedQueues(leases, command.queues(), consumer);
        Recovery recovery = new Recovery(maintenance, command.queues(), consumer, leasing.lease(), suspects,
                dispatcher, pauses, counting, leasing.recoveryInterval(), System::nanoTime);
        Fetcher fetcher = new Fetcher(leases, maintenance, command.queues(), consumer, settings.polling().block(),
                inFlight, recovery, suspects, pauses, dispatcher, acknowledgements, ahead, ledgerOutage,
                threads.ofJobKind("fetch"));
        Loops loops = new Loops(consumer, threads)
                .sweepingDeadlines(new DeadlineLoop(inFlight), DeadlineLoop.interval(settings.retries().jobTimeout()))
                .whileLeasing("promotion", new PromotionLoop(maintenance, command.queues(), clock), Duration.ZERO,
                        settings.polling().promoteInterval())
                .untilShutdown("lease extension", new LeaseExtensionLoop(leases, consumer, inFlight, counting),
                        leasing.extendInterval(), leasing.extendInterval())
                .untilShutdown("cancel watch", new CancelWatch(marks, inFlight,
                                settings.stopping().cancelGrace(), consumer),
                        CancelWatch.CHECK_INTERVAL, CancelWatch.CHECK_INTERVAL)
                .whileLeasing("housekeeping", new HousekeepingLoop(maintenance, command.queues(),
                                housekeeping.retention(), housekeeping.consumerIdleRemoval(), clock, counting),
                        housekeeping.trimInterval(), housekeeping.trimInterval());

        Worker worker = new Worker(claim, fetcher, pauses, jobs, inFlight, acknowledgements, loops, counting,
                settings.stopping().grace());
        worker.start();
        LOG.info("worker started consumer={} queues={} concurrency={} threads={} lease={} jobTimeout={}"
                + " maxAttempts={}", consumer, command.queues(), command.concurrency(),
                dispatching.runsJobsOn().label(), leasing.lease(), settings.retries().jobTimeout(),
                settings.retries().retryPolicy().maxAttempts());
        return worker;
    }

    /**
     * The same worker's rooms on the calling thread, for tests that run their handlers and then assert: see
     * {@link InlineWorker}. It declares the queues now.
     */
    public InlineWorker inline(Command command) {
        CountingObserver counting = new CountingObserver(jobObserver, maintenanceObserver);
        InFlight inFlight = new InFlight(command.concurrency());
        Acknowledgements<HandedOver> acknowledgements = Acknowledgements.onCallingThread(leases,
                new AcknowledgedHandOvers(inFlight, counting, command.consumer()));
        // the caller leases: nothing waits for the ledger to answer
        Processor processor = processor(command, command.consumer(), acknowledgements, inFlight,
                suspects(inFlight, command.consumer(), counting), counting,
                new LedgerOutage(ledger, command.consumer()));
        Dispatcher dispatcher = new Dispatcher(inFlight, new CancelMarks(leases),
                settings.dispatching().batchCommit(), 1, Runnable::run, processor::process, LeaseAhead.none());
        command.queues().forEach(leases::declare);
        return new InlineWorker(leases, command, new PausedQueues(leases, command.queues(), command.consumer()),
                inFlight, dispatcher,
                new PromotionLoop(maintenance, command.queues(), clock), counting);
    }

    /** Triage, execution and finishing of a delivery: the path every delivery takes, threaded or inline. */
    private Processor processor(Command command, ConsumerName consumer, Acknowledgements<HandedOver> acknowledgements,
                                InFlight inFlight, Suspects suspects, CountingObserver counting,
                                LedgerOutage ledgerOutage) {
        Retries retries = settings.retries();
        Finisher finisher = new Finisher(leases, outcomes, acknowledgements, retries.retryPolicy(),
                retries.jobTimeout(), clock, random, counting, consumer, ledgerOutage);
        return new Processor(new Triage(suspects, handlers, command.handler(),
                settings.admission().noHandlerPolicy(), clock),
                new AttemptExecutor(ledger, consumer, retries.jobTimeout(), clock, counting, tracing),
                finisher, suspects, inFlight, consumer);
    }

    private Suspects suspects(InFlight inFlight, ConsumerName consumer, CountingObserver counting) {
        return new Suspects(inFlight, leases, ledger, settings.admission().deliveryLimit(), clock, consumer,
                counting);
    }
}
