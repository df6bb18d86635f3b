package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.OptionalBinder;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.CountCompletionsUseCase;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.ListDelayedJobsUseCase;
import dev.baton.application.port.in.ListPartitionsUseCase;
import dev.baton.application.port.in.ListQueuesUseCase;
import dev.baton.application.port.in.ListSchedulesUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.application.port.in.RunSchedulerUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.SearchOutcomesUseCase;
import dev.baton.application.port.in.TrimQueueUseCase;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.service.AtLeastOnceExecution;
import dev.baton.application.service.CompletionJanitor;
import dev.baton.application.service.DeadLetterService;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.CancelService;
import dev.baton.application.service.OutcomeSearchService;
import dev.baton.application.service.QueuePauseService;
import dev.baton.application.service.QueueQueryService;
import dev.baton.application.service.TrimService;
import dev.baton.application.service.schedule.ScheduleQueryService;
import dev.baton.application.service.schedule.SchedulerService;
import dev.baton.application.service.worker.WorkerService;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.tracing.Tracings;
import dev.baton.domain.PayloadLimit;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** The application services behind the use cases, built from the configuration and whatever adapters are bound. */
final class ServicesModule extends AbstractModule {
    private static final Duration JANITOR_INTERVAL = Duration.ofMinutes(10);

    /** Traces jobs through {@code tracing} instead of the classpath's {@code GlobalOpenTelemetry}. */
    static void useTracing(Binder binder, JobTracing tracing) {
        OptionalBinder.newOptionalBinder(binder, JobTracing.class).setBinding().toInstance(tracing);
    }

    @Override
    protected void configure() {
        bind(EnqueueJobUseCase.class).to(EnqueueService.class);
        bind(EnqueueJobsUseCase.class).to(EnqueueService.class);
        bind(EnqueueUniqueJobUseCase.class).to(EnqueueService.class);
        bind(RunWorkerUseCase.class).to(WorkerService.class);
        bind(InspectQueueUseCase.class).to(QueueQueryService.class);
        bind(LocateJobUseCase.class).to(QueueQueryService.class);
        bind(ReadQueueTotalsUseCase.class).to(QueueQueryService.class);
        bind(ListDelayedJobsUseCase.class).to(QueueQueryService.class);
        bind(ListPartitionsUseCase.class).to(QueueQueryService.class);
        bind(ListQueuesUseCase.class).to(QueueQueryService.class);
        bind(SearchOutcomesUseCase.class).to(OutcomeSearchService.class);
        bind(CountCompletionsUseCase.class).to(OutcomeSearchService.class);
        bind(ListDeadLettersUseCase.class).to(DeadLetterService.class);
        bind(RedriveDeadLettersUseCase.class).to(DeadLetterService.class);
        bind(PurgeDeadLettersUseCase.class).to(DeadLetterService.class);
        bind(TrimQueueUseCase.class).to(TrimService.class);
        bind(RunSchedulerUseCase.class).to(SchedulerService.class);
        bind(ListSchedulesUseCase.class).to(ScheduleQueryService.class);
        bind(PauseQueueUseCase.class).to(QueuePauseService.class);
        bind(ResumeQueueUseCase.class).to(QueuePauseService.class);
        bind(CancelJobUseCase.class).to(CancelService.class);
        OptionalBinder.newOptionalBinder(binder(), JobTracing.class).setDefault()
                .toProvider(Tracings::fromClasspath).in(Singleton.class);
    }

    @Provides
    @Singleton
    SchedulerService scheduler(ScheduleFires fires, Clock clock) {
        return new SchedulerService(fires, clock);
    }

    @Provides
    @Singleton
    ScheduleQueryService schedules(ScheduleFires fires, Clock clock) {
        return new ScheduleQueryService(fires, clock);
    }

    @Provides
    @Singleton
    WorkerSettings settings(BatonConfig config) {
        return WorkerSettings.DEFAULTS
                .withLease(config.lease())
                .withDeliveryLimit(config.deliveryLimit())
                .withRetryPolicy(config.retryPolicy())
                .withJobTimeout(config.jobTimeout())
                .withHousekeeping(WorkerSettings.DEFAULTS.trimInterval(), config.retention(), config.idleThreshold())
                .withGrace(config.grace())
                .withCancelGrace(config.cancelGrace())
                .withBatchCommit(config.batchCommit())
                .withJobThreads(config.jobThreads());
    }

    @Provides
    @Singleton
    EnqueueService enqueue(JobPublisher publisher, Clock clock, JobObserver observer, JobTracing tracing) {
        return new EnqueueService(publisher, clock, PayloadLimit.DEFAULT, observer, tracing);
    }

    @Provides
    @Singleton
    WorkerService worker(JobLeases leases, QueueMaintenance maintenance, ExecutionLedger ledger, JobOutcomes outcomes,
                         JobHandlers handlers, WorkerSettings settings, Clock clock, JobObserver jobObserver,
                         MaintenanceObserver maintenanceObserver, JobTracing tracing) {
        return new WorkerService(leases, maintenance, ledger, outcomes, handlers, settings, clock,
                () -> ThreadLocalRandom.current().nextDouble(), jobObserver, maintenanceObserver, tracing);
    }

    @Provides
    @Singleton
    QueueQueryService queries(QueueAdministration administration, QueueOverview overview, ExecutionLedger ledger,
                              JobOutcomes outcomes) {
        // without a ledger there are no completions to count or find
        return new QueueQueryService(administration, overview,
                ledger instanceof AtLeastOnceExecution ? Optional.empty() : Optional.of(ledger), outcomes);
    }

    @Provides
    @Singleton
    OutcomeSearchService outcomeSearch(ExecutionLedger ledger, JobOutcomes outcomes, Clock clock) {
        // without a ledger there are no outcomes to search or count
        return new OutcomeSearchService(ledger instanceof AtLeastOnceExecution ? Optional.empty()
                : Optional.of(outcomes), clock);
    }

    @Provides
    @Singleton
    DeadLetterService deadLetters(QueueAdministration administration, JobOutcomes outcomes, Clock clock) {
        return new DeadLetterService(administration, outcomes, clock);
    }

    @Provides
    @Singleton
    QueuePauseService pauses(QueueAdministration administration) {
        return new QueuePauseService(administration);
    }

    @Provides
    @Singleton
    CancelService cancels(JobOutcomes outcomes, QueueAdministration administration, Clock clock) {
        return new CancelService(outcomes, administration, clock);
    }

    @Provides
    @Singleton
    TrimService trim(QueueMaintenance maintenance, BatonConfig config, Clock clock) {
        return new TrimService(maintenance, config.retention(), clock);
    }

    /** One per instance, started on first use and stopped with the instance, whatever number of workers it runs. */
    @Provides
    @Singleton
    CompletionJanitor janitor(ExecutionLedger ledger, BatonConfig config, Clock clock, Closer closer) {
        return closer.register(new CompletionJanitor(ledger, config.retention(), clock, JANITOR_INTERVAL)).start();
    }
}
