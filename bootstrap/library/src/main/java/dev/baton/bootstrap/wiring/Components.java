package dev.baton.bootstrap.wiring;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.in.CountCompletionsUseCase;
import dev.baton.application.port.in.DeleteDelayedJobUseCase;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.in.InspectOutboxUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.ListDelayedJobsUseCase;
import dev.baton.application.port.in.ListPartitionsUseCase;
import dev.baton.application.port.in.ListQueuesUseCase;
import dev.baton.application.port.in.ListSchedulesUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.ReadAuditTrailUseCase;
import dev.baton.application.port.in.ReadDeadLetterUseCase;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.port.in.RecordAuditEntryUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.application.port.in.RunJobNowUseCase;
import dev.baton.application.port.in.RunSchedulerUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.SearchOutcomesUseCase;
import dev.baton.application.port.in.TrimQueueUseCase;
import dev.baton.application.port.out.EffectRecords;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Setting;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.bootstrap.metrics.Meters;
import dev.baton.bootstrap.metrics.OutboxGauges;
import dev.baton.bootstrap.metrics.QueueGauges;
import dev.baton.bootstrap.tracing.Tracings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The parts of one Baton instance, wired by hand: the ports (Redis and PostgreSQL, or adapters given whole), the
 * meters and observers, the services behind the use cases, the outbox. Each part is made on its first use and kept;
 * what opens a connection or starts a thread is registered with the instance's {@link Closer}, in the order it
 * opened, and closed in reverse.
 */
public final class Components {
    static final Duration GAUGE_REFRESH = Duration.ofSeconds(10);

    private final Closer closer = new Closer();
    private final Clock clock;
    private final KnownQueues queues;
    private final Lazy<JobHandlers> handlers;
    private final Observers observers;
    private final Ports ports;
    private final Optional<OutboxParts> outbox;
    private final Services services;
    private final Lazy<QueueGauges> queueGauges;
    private final Answers answers;

    /** What the builder was given besides the configuration: handlers, observers, and the parts it replaces. */
    public record Given(Clock clock, Map<String, JobHandler> handlers, List<NamedJobHandler> namedHandlers,
                        ClassLoader handlerLoader, List<JobObserver> observers, Optional<MeterRegistry> registry,
                        Optional<JobTracing> tracing, Optional<DataSource> dataSource,
                        List<String> handlerMigrations, Optional<Adapters> adapters) {
        public Given {
            Objects.requireNonNull(clock, "clock");
            handlers = Map.copyOf(handlers);
            namedHandlers = List.copyOf(namedHandlers);
            Objects.requireNonNull(handlerLoader, "handler loader");
            observers = List.copyOf(observers);
            handlerMigrations = List.copyOf(handlerMigrations);
        }
    }

    public Components(BatonConfig config, Given given) {
        Clock clock = given.clock();
        this.clock = clock;
        this.queues = new KnownQueues(config.queues());
        this.handlers = new Lazy<>(() -> HandlerRegistry.collect(given.handlers(), given.namedHandlers(),
                given.handlerLoader()));
        Lazy<JobTracing> tracing = new Lazy<>(() -> given.tracing().orElseGet(Tracings::fromClasspath));
        this.observers = new Observers(new Lazy<>(() -> given.registry().map(Meters::applications)
                .orElseGet(Meters::own)), given.observers());
        this.ports = given.adapters().map(Ports::given).orElseGet(() ->
                Ports.opened(config, clock, closer, given.handlerMigrations(), given.dataSource()));
        this.outbox = ports.postgres().map(postgres -> new OutboxParts(postgres, ports.redis().orElseThrow(), clock,
                closer, observers, tracing));
        this.services = new Services(config, clock, closer, ports.transport(), ports.ledger(), observers, tracing,
                handlers);
        this.queueGauges = new Lazy<>(() -> new QueueGauges(services.queries(), queues,
                observers.meters().registry(), GAUGE_REFRESH));
        this.answers = answers();
    }

    private Answers answers() {
        return new Answers()
                .add(EnqueueJobUseCase.class, services::enqueue)
                .add(EnqueueJobsUseCase.class, services::enqueue)
                .add(EnqueueUniqueJobUseCase.class, services::enqueue)
                .add(RunWorkerUseCase.class, services::worker)
                .add(InspectQueueUseCase.class, services::queries)
                .add(LocateJobUseCase.class, services::queries)
                .add(ReadQueueTotalsUseCase.class, services::queries)
                .add(ListDelayedJobsUseCase.class, services::queries)
                .add(ListPartitionsUseCase.class, services::queries)
                .add(ListQueuesUseCase.class, services::queries)
                .add(SearchOutcomesUseCase.class, services::outcomeSearch)
                .add(CountCompletionsUseCase.class, services::outcomeSearch)
                .add(ListDeadLettersUseCase.class, services::deadLetters)
                .add(ReadDeadLetterUseCase.class, services::deadLetters)
                .add(RedriveDeadLettersUseCase.class, services::deadLetters)
                .add(PurgeDeadLettersUseCase.class, services::deadLetters)
                .add(TrimQueueUseCase.class, services::trim)
                .add(RunSchedulerUseCase.class, services::scheduler)
                .add(ListSchedulesUseCase.class, services::schedules)
                .add(PauseQueueUseCase.class, services::pauses)
                .add(ResumeQueueUseCase.class, services::pauses)
                .add(CancelJobUseCase.class, services::cancels)
                .add(RunJobNowUseCase.class, services::delayedJobs)
                .add(DeleteDelayedJobUseCase.class, services::delayedJobs)
                .add(RecordAuditEntryUseCase.class, services::audit)
                .add(ReadAuditTrailUseCase.class, services::audit)
                .add(InspectOutboxUseCase.class, () -> outbox().inspect())
                // the ports and adapters, for tools that go below the use cases (the CLI's queue commands, the bench)
                .add(JobPublisher.class, () -> ports.transport().get().publisher())
                .add(JobLeases.class, () -> ports.transport().get().leases())
                .add(QueueMaintenance.class, () -> ports.transport().get().maintenance())
                .add(QueueAdministration.class, () -> ports.transport().get().administration())
                .add(QueueOverview.class, () -> ports.transport().get().overview())
                .add(ScheduleFires.class, () -> ports.transport().get().scheduleFires())
                .add(ExecutionLedger.class, () -> ports.ledger().get().executions())
                .add(JobOutcomes.class, () -> ports.ledger().get().outcomes())
                .add(EffectRecords.class, () -> postgres().effectRecords())
                .add(RedisAdapter.class, this::redis)
                .add(PostgresAdapter.class, this::postgres)
                .add(WorkerSettings.class, services::settings)
                .add(MeterRegistry.class, () -> observers.meters().registry());
    }

    /**
     * A use case ({@code dev.baton.application.port.in}), a port or adapter Baton runs on, its worker settings or
     * its meter registry.
     *
     * @throws IllegalArgumentException for any other type, naming those answered
     */
    public <T> T use(Class<T> type) {
        return answers.get(type);
    }

    /** The instance's clock, the builder's. */
    public Clock clock() {
        return clock;
    }

    public Closer closer() {
        return closer;
    }

    public KnownQueues queues() {
        return queues;
    }

    /** @throws ConfigException when two handlers of different classes share a name */
    public JobHandlers handlers() {
        return handlers.get();
    }

    public EnqueueService enqueue() {
        return services.enqueue();
    }

    /** False in at-least-once mode, and on adapters given whole (in-memory ones, for tests), which bring none. */
    public boolean hasOutbox() {
        return outbox.isPresent();
    }

    /** @throws ConfigException without a PostgreSQL ledger, which is where the outbox lives */
    public EnqueueService outboxEnqueue() {
        return outbox().enqueue();
    }

    /** Relays the outbox to Redis, started on first call. */
    public void startRelay() {
        outbox().relay();
    }

    /** Deletes the ledger's completions past retention, started on first call: one for all workers. */
    public void startJanitor() {
        services.janitor();
    }

    /** @throws ConfigException without a PostgreSQL ledger */
    public PostgresAdapter.Outbox transactionalOutbox() {
        return outbox().transactional();
    }

    /** Brings the ledger's schema up to date; nothing without a ledger. */
    public void migrate() {
        ports.ledger().get().migrator().migrate();
    }

    public QueueGauges queueGauges() {
        return queueGauges.get();
    }

    /** @throws ConfigException without a PostgreSQL ledger */
    public OutboxGauges outboxGauges() {
        return outbox().gauges();
    }

    public List<HealthCheck> healthChecks() {
        return ports.health();
    }

    public Meters meters() {
        return observers.meters();
    }

    private OutboxParts outbox() {
        return outbox.orElseThrow(() -> new ConfigException("the outbox lives in the ledger's PostgreSQL schema: it"
                + " needs " + Setting.MODE.envName() + "=exactly-once"));
    }

    private RedisAdapter redis() {
        return ports.redis().orElseThrow(() -> new ConfigException("there is no Redis adapter: the adapters were"
                + " given whole (Baton.builder().adapters(...))")).adapter();
    }

    private PostgresAdapter postgres() {
        return ports.postgres().orElseThrow(() -> new ConfigException(ports.redis().isEmpty()
                ? "there is no PostgreSQL adapter: the adapters were given whole (Baton.builder().adapters(...))"
                : "the ledger lives in PostgreSQL only with " + Setting.MODE.envName() + "=exactly-once")).adapter();
    }
}
