package dev.baton.bootstrap.wiring;

import static dev.baton.bootstrap.config.Setting.AUDIT_RETENTION;
import static dev.baton.bootstrap.config.Setting.BATCH_COMMIT;
import static dev.baton.bootstrap.config.Setting.CANCEL_GRACE;
import static dev.baton.bootstrap.config.Setting.DELIVERY_LIMIT;
import static dev.baton.bootstrap.config.Setting.GRACE;
import static dev.baton.bootstrap.config.Setting.IDLE_THRESHOLD;
import static dev.baton.bootstrap.config.Setting.JOB_THREADS;
import static dev.baton.bootstrap.config.Setting.JOB_TIMEOUT;
import static dev.baton.bootstrap.config.Setting.LEASE;
import static dev.baton.bootstrap.config.Setting.NO_HANDLER_GRACE;
import static dev.baton.bootstrap.config.Setting.RETENTION;

import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.service.AtLeastOnceExecution;
import dev.baton.application.service.AuditService;
import dev.baton.application.service.CancelService;
import dev.baton.application.service.CompletionJanitor;
import dev.baton.application.service.DeadLetterService;
import dev.baton.application.service.DelayedJobService;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.OutcomeSearchService;
import dev.baton.application.service.QueuePauseService;
import dev.baton.application.service.QueueQueryService;
import dev.baton.application.service.TrimService;
import dev.baton.application.service.schedule.ScheduleQueryService;
import dev.baton.application.service.schedule.SchedulerService;
import dev.baton.application.service.worker.WorkerService;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.Retention;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The application services behind the use cases, each made on first use from the ports it needs (so from the adapters
 * those open) and kept for the instance's life.
 */
final class Services {
    private static final Duration JANITOR_INTERVAL = Duration.ofMinutes(10);

    private final WorkerSettings settings;
    private final Lazy<EnqueueService> enqueue;
    private final Lazy<WorkerService> worker;
    private final Lazy<QueueQueryService> queries;
    private final Lazy<OutcomeSearchService> outcomeSearch;
    private final Lazy<DeadLetterService> deadLetters;
    private final Lazy<QueuePauseService> pauses;
    private final Lazy<CancelService> cancels;
    private final Lazy<DelayedJobService> delayedJobs;
    private final Lazy<TrimService> trim;
    private final Lazy<SchedulerService> scheduler;
    private final Lazy<ScheduleQueryService> schedules;
    private final Lazy<CompletionJanitor> janitor;
    private final Lazy<AuditService> audit;

    Services(BatonConfig config, Clock clock, Closer closer, Supplier<Transport> transport, Supplier<Ledger> ledger,
             Observers observers, Supplier<JobTracing> tracing, Supplier<JobHandlers> handlers) {
        this.settings = settings(config);
        this.enqueue = new Lazy<>(() -> new EnqueueService(transport.get().publisher(), clock, PayloadLimit.DEFAULT,
                observers.jobs(), tracing.get()));
        this.worker = new Lazy<>(() -> new WorkerService(transport.get().leases(), transport.get().maintenance(),
                ledger.get().executions(), ledger.get().outcomes(), handlers.get(), settings, clock,
                () -> ThreadLocalRandom.current().nextDouble(), observers.jobs(), observers.maintenance(),
                tracing.get()));
        // without a ledger there are no completions to count or find, and no outcomes to search
        this.queries = new Lazy<>(() -> new QueueQueryService(transport.get().administration(),
                transport.get().overview(), recorded(ledger.get()).map(Ledger::executions), ledger.get().outcomes()));
        this.outcomeSearch = new Lazy<>(() -> new OutcomeSearchService(recorded(ledger.get()).map(Ledger::outcomes),
                clock));
        this.deadLetters = new Lazy<>(() -> new DeadLetterService(transport.get().administration(),
                ledger.get().outcomes(), clock));
        this.pauses = new Lazy<>(() -> new QueuePauseService(transport.get().administration()));
        this.cancels = new Lazy<>(() -> new CancelService(ledger.get().outcomes(), transport.get().administration(),
                clock));
        this.delayedJobs = new Lazy<>(() -> new DelayedJobService(transport.get().delayedJobs(), queries.get(),
                clock));
        this.trim = new Lazy<>(() -> new TrimService(transport.get().maintenance(),
                new Retention(config.get(RETENTION)), clock));
        this.scheduler = new Lazy<>(() -> new SchedulerService(transport.get().scheduleFires(), clock,
                observers.jobs()));
        this.schedules = new Lazy<>(() -> new ScheduleQueryService(transport.get().scheduleFires(), clock));
        // one per instance, started on first use and stopped with it, whatever the number of workers it runs
        this.janitor = new Lazy<>(() -> closer.register(new CompletionJanitor(ledger.get().executions(),
                new Retention(config.get(RETENTION)), ledger.get().audit().map(trail -> new CompletionJanitor.Trail(
                        trail, new Retention(config.get(AUDIT_RETENTION)))), clock, JANITOR_INTERVAL)).start());
        this.audit = new Lazy<>(() -> new AuditService(ledger.get().audit()));
    }

    private static WorkerSettings settings(BatonConfig config) {
        return WorkerSettings.DEFAULTS
                .with(WorkerSettings.Leasing.of(config.get(LEASE)))
                .with(new WorkerSettings.Retries(config.retryPolicy(), config.get(JOB_TIMEOUT)))
                .with(new WorkerSettings.Admission(new DeliveryLimit(config.get(DELIVERY_LIMIT)),
                        config.get(NO_HANDLER_GRACE)))
                .with(WorkerSettings.Housekeeping.DEFAULT.withRetention(new Retention(config.get(RETENTION)))
                        .withConsumerIdleRemoval(config.get(IDLE_THRESHOLD)))
                .with(new WorkerSettings.Stopping(config.get(GRACE), config.get(CANCEL_GRACE)))
                .with(new WorkerSettings.Dispatching(config.get(BATCH_COMMIT), config.get(JOB_THREADS)));
    }

    /** The ledger, unless it records nothing (at-least-once mode). */
    private static Optional<Ledger> recorded(Ledger ledger) {
        return ledger.executions() instanceof AtLeastOnceExecution ? Optional.empty() : Optional.of(ledger);
    }

    WorkerSettings settings() {
        return settings;
    }

    EnqueueService enqueue() {
        return enqueue.get();
    }

    WorkerService worker() {
        return worker.get();
    }

    QueueQueryService queries() {
        return queries.get();
    }

    OutcomeSearchService outcomeSearch() {
        return outcomeSearch.get();
    }

    DeadLetterService deadLetters() {
        return deadLetters.get();
    }

    QueuePauseService pauses() {
        return pauses.get();
    }

    CancelService cancels() {
        return cancels.get();
    }

    DelayedJobService delayedJobs() {
        return delayedJobs.get();
    }

    TrimService trim() {
        return trim.get();
    }

    SchedulerService scheduler() {
        return scheduler.get();
    }

    ScheduleQueryService schedules() {
        return schedules.get();
    }

    AuditService audit() {
        return audit.get();
    }

    /** Started with the first worker, one for all of them. */
    CompletionJanitor janitor() {
        return janitor.get();
    }
}
