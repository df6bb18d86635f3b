package dev.baton.bootstrap;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.Module;
import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.RunSchedulerUseCase;
import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.service.CompletionJanitor;
import dev.baton.application.service.OutboxRelay;
import dev.baton.bootstrap.admin.AdminServer;
import dev.baton.bootstrap.admin.PauseEndpoint;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.CodeSettings;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Secrets;
import dev.baton.bootstrap.config.Setting;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.bootstrap.jobs.TypedJobHandler;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.bootstrap.metrics.QueueGauges;
import dev.baton.bootstrap.tracing.OpenTelemetryTracing;
import dev.baton.bootstrap.wiring.BatonModules;
import dev.baton.bootstrap.wiring.Closer;
import dev.baton.bootstrap.wiring.HandlersModule;
import dev.baton.bootstrap.wiring.HealthCheck;
import dev.baton.bootstrap.wiring.Migrator;
import dev.baton.bootstrap.wiring.PostgresModule;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Schedule;
import dev.baton.domain.Uniqueness;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Baton embedded in an application: enqueue jobs and run workers in-process.
 *
 * <pre>{@code
 * try (Baton baton = Baton.builder()
 *         .redis("redis://127.0.0.1:6379")
 *         .postgres("jdbc:postgresql://127.0.0.1:5432/app?user=app")
 *         .handler(WELCOME, (welcome, context) -> { ...; return Optional.empty(); })
 *         .build()) {
 *     baton.start("emails");
 *     baton.enqueue(WELCOME, QueueName.of("emails"), JobId.of("welcome-42"), new Welcome("ada@example.com"));
 * }
 * }</pre>
 * with {@code JobType<Welcome> WELCOME = JobType.of("welcome", Welcome.class)} and {@code record Welcome(String to)}.
 *
 * Everything is opened lazily (the first enqueue opens Redis; the first worker or query opens PostgreSQL and migrates
 * the ledger's schema) and closed by {@link #close()}, which stops running workers gracefully first. Once a worker
 * has started, a shutdown hook closes too (unless {@link Builder#shutdownHook(boolean) turned off}): a {@code main}
 * that returns without {@code close()} still has what committed acknowledged.
 */
public final class Baton implements AutoCloseable {
    private final Injector injector;
    private final Closer closer;
    private final BatonConfig config;
    private final boolean closeAtShutdown;
    private final List<RunningWorker> workers = new CopyOnWriteArrayList<>();
    private final CloseAtShutdown shutdownHook = new CloseAtShutdown(this::close);
    private final List<Schedule> schedules;
    private RunSchedulerUseCase.RunningScheduler scheduler; // guarded by this

    private Baton(Injector injector, BatonConfig config, boolean closeAtShutdown, List<Schedule> schedules) {
        this.injector = injector;
        this.closer = injector.getInstance(Closer.class);
        this.config = config;
        this.closeAtShutdown = closeAtShutdown;
        this.schedules = List.copyOf(schedules);
    }

    public static Builder builder() {
        return new Builder();
    }

    public BatonConfig config() {
        return config;
    }

    /** Enqueues a job of {@code type} due now: its record as the JSON payload, the type's name as the job's type. */
    public <T> Job enqueue(JobType<T> type, QueueName queue, JobId jobId, T job) {
        return enqueue(type.command(queue, jobId, job));
    }

    /** Enqueues an untyped job due now, its payload as given. */
    public Job enqueue(QueueName queue, JobId jobId, String payload) {
        return enqueue(EnqueueJobUseCase.Command.now(queue, jobId, payload));
    }

    /** Enqueues as {@code command} says: typed ({@link JobType#command}) or not, due now, at an instant or later. */
    public Job enqueue(EnqueueJobUseCase.Command command) {
        return use(EnqueueJobUseCase.class).enqueue(command);
    }

    /**
     * Enqueues a job of {@code type} due now unless a job holding {@code uniqueness}'s key is waiting, delayed or
     * running on the queue; either way the outcome names the job that holds the key.
     */
    public <T> EnqueueUniqueJobUseCase.Outcome enqueueUnique(JobType<T> type, QueueName queue, JobId jobId, T job,
                                                             Uniqueness uniqueness) {
        return enqueueUnique(type.command(queue, jobId, job), uniqueness);
    }

    /** Enqueues as {@code command} says, unless a job holding {@code uniqueness}'s key is there (see above). */
    public EnqueueUniqueJobUseCase.Outcome enqueueUnique(EnqueueJobUseCase.Command command, Uniqueness uniqueness) {
        return use(EnqueueUniqueJobUseCase.class)
                .enqueueUnique(new EnqueueUniqueJobUseCase.Command(command, uniqueness));
    }

    /** Enqueues many jobs in as few round trips as the transport allows. */
    public List<Job> enqueueAll(List<EnqueueJobUseCase.Command> jobs) {
        return use(EnqueueJobsUseCase.class).enqueueAll(new EnqueueJobsUseCase.Command(jobs));
    }

    /**
     * Where a job is now: completed, dead, replayed or purged (from the ledger, even when Redis lost the job), waiting,
     * pending, delayed, dead (in Redis), or unknown.
     */
    public LocateJobUseCase.Whereabouts job(String queue, String jobId) {
        return use(LocateJobUseCase.class).locate(new LocateJobUseCase.Command(QueueName.of(queue), JobId.of(jobId)));
    }

    /** Pauses {@code queue} until {@link #resume}: workers lease nothing from it, enqueues go on (OPERATIONS.md). */
    public void pause(QueueName queue) {
        use(PauseQueueUseCase.class).pause(new PauseQueueUseCase.Command(queue));
    }

    /** Resumes a paused {@code queue}: workers lease from it again within a second. */
    public void resume(QueueName queue) {
        use(ResumeQueueUseCase.class).resume(new ResumeQueueUseCase.Command(queue));
    }

    /** Starts a worker on {@code queues}, each run by the handler of the same name, with the configured concurrency. */
    public RunningWorker start(String... queues) {
        List<QueueName> names = Arrays.stream(queues).map(QueueName::of).toList();
        return start(new RunWorkerUseCase.Command(names, defaultConsumer(), config.concurrency(), Optional.empty()));
    }

    /**
     * Starts a worker; {@link #close()} (or the shutdown hook) stops it within the configured grace period.
     *
     * @throws ConfigException when a queue has no handler of its name (and the command names none), or the named
     *                         handler does not exist: such a worker would dead-letter every job
     */
    public RunningWorker start(RunWorkerUseCase.Command command) {
        HandlersModule.requireHandlers(handlers(), command.queues(), command.handler());
        instance(KnownQueues.class).add(command.queues());
        RunningWorker worker = use(RunWorkerUseCase.class).start(command);
        instance(CompletionJanitor.class); // started with the first worker, one for all of them
        if (config.relay() && hasOutbox()) {
            relay();
        }
        Duration grace = config.grace();
        closer.register(() -> worker.stop(grace));
        workers.add(worker);
        startScheduler();
        if (closeAtShutdown) {
            shutdownHook.register();
        }
        return worker;
    }

    /** The schedules this instance fires ({@link Builder#schedule}, {@link Builder#schedulesFile}). */
    public List<Schedule> schedules() {
        return schedules;
    }

    /**
     * Starts firing the schedules, unless already started (the first worker starts it too). Every instance may: each
     * fire time's job is enqueued once, whichever fires it first. Stopped by {@link #close()}.
     */
    public synchronized void startScheduler() {
        if (scheduler == null && !schedules.isEmpty()) {
            scheduler = closer.register(use(RunSchedulerUseCase.class)
                    .start(RunSchedulerUseCase.Command.of(schedules)));
        }
    }

    /**
     * Starts relaying the outbox (jobs enqueued in PostgreSQL transactions) to Redis, once per instance: every
     * {@link #start worker} does so unless {@code BATON_RELAY=off}; {@code baton relay} does nothing else.
     *
     * @throws ConfigException without a PostgreSQL ledger (at-least-once mode), which is where the outbox lives
     */
    public void relay() {
        requireOutbox();
        instance(OutboxRelay.class);
    }

    /**
     * Enqueues jobs inside your own PostgreSQL transaction, on your connection: they run once it commits, never when
     * it rolls back (docs/HANDLERS.md#enqueueing-in-your-transaction).
     *
     * @throws ConfigException without a PostgreSQL ledger (at-least-once mode)
     */
    public PostgresAdapter.Outbox outbox() {
        requireOutbox();
        return instance(PostgresAdapter.class).outbox();
    }

    private void requireOutbox() {
        if (!hasOutbox()) {
            throw new ConfigException("the outbox lives in the ledger's PostgreSQL schema: it needs "
                    + Setting.MODE.envName() + "=exactly-once");
        }
    }

    /** False in at-least-once mode, and on adapters (in-memory ones, for tests) that bring no outbox. */
    private boolean hasOutbox() {
        return injector.getExistingBinding(Key.get(OutboxRelay.class)) != null;
    }

    /** Blocks until every worker started so far has stopped: by {@link #close()}, the shutdown hook, or by itself. */
    public void await() throws InterruptedException {
        for (RunningWorker worker : workers) {
            worker.await();
        }
    }

    /** The hook registered by the first worker, for tests that run it without ending their JVM. */
    Optional<Thread> shutdownHook() {
        return shutdownHook.hook();
    }

    /** Any inbound port (use case) of the application, e.g. {@code use(InspectQueueUseCase.class)}. */
    public <T> T use(Class<T> useCase) {
        return instance(useCase);
    }

    private <T> T instance(Class<T> type) {
        return instance(Key.get(type));
    }

    private <T> T instance(Key<T> key) {
        return Injections.get(injector, key);
    }

    /** The handlers this instance knows, by name. */
    public JobHandlers handlers() {
        return instance(JobHandlers.class);
    }

    /** Brings the ledger's schema up to date (opening the ledger, on first use, does it too). */
    public void migrate() {
        instance(Migrator.class).migrate();
    }

    /**
     * Starts the admin HTTP server on the configured address, and the per-queue gauges behind {@code /metrics}.
     *
     * @return the bound address, empty when the admin address is {@code off}
     */
    public Optional<InetSocketAddress> startAdmin() {
        closer.register(instance(QueueGauges.class));
        return config.adminAddress().map(address -> closer.register(AdminServer.start(address, config,
                instance(new Key<Set<HealthCheck>>() { }),
                instance(PrometheusMeterRegistry.class), use(InspectQueueUseCase.class),
                instance(KnownQueues.class), new PauseEndpoint(use(PauseQueueUseCase.class),
                        use(ResumeQueueUseCase.class)))).address());
    }

    /** Whether each dependency (redis, postgres) answers now. */
    public Map<String, Boolean> health() {
        Map<String, Boolean> health = new LinkedHashMap<>();
        instance(new Key<Set<HealthCheck>>() { })
                .forEach(check -> health.put(check.name(), check.isUp()));
        return health;
    }

    /** Stops workers gracefully, then closes servers and connections, in reverse order of opening. */
    @Override
    public void close() {
        shutdownHook.remove();
        closer.close();
    }

    /** {@code <host>-<pid>}: stable across restarts on one host, distinct between processes. */
    public static ConsumerName defaultConsumer() {
        return HostConsumer.name();
    }

    /**
     * Builds a {@link Baton}: starts from the defaults (or {@link #config}, e.g. {@code BatonConfig.fromEnvironment()})
     * and Redis + PostgreSQL; handlers come from {@link #handler}, Guice {@link #module}s and {@code ServiceLoader}.
     * Every setting of the environment can be given here too ({@link CodeSettings}): such a value beats the base
     * configuration, whatever the order of the calls, and is checked by the environment's rule at {@link #build()}.
     */
    public static final class Builder extends CodeSettings<Builder> {
        private static final String ENVIRONMENT_JDBC_URL = "BATON_JDBC_URL";
        private BatonConfig config = BatonConfig.defaults();
        private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
        private final List<Module> modules = new ArrayList<>();
        private Optional<Module> adapters = Optional.empty();
        private ClassLoader handlerLoader = Baton.class.getClassLoader();
        private Clock clock = Clock.systemUTC();
        private Optional<String> jdbcUrl = Optional.empty();
        private boolean shutdownHook = true;
        private final Schedules schedules = new Schedules();

        private Builder() {
            super("Baton.builder()");
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** The base configuration, below the settings given on this builder. */
        public Builder config(BatonConfig newConfig) {
            this.config = Objects.requireNonNull(newConfig, "config");
            return this;
        }

        public Builder postgres(String url) {
            this.jdbcUrl = Optional.of(Objects.requireNonNull(url, "jdbc url"));
            return this;
        }

        /**
         * The ledger (and the migrations) use the application's pool instead of opening one of Baton's own; {@link
         * Baton#close()} leaves it open. The JDBC URL and the pool size no longer apply.
         */
        public Builder dataSource(DataSource dataSource) {
            Objects.requireNonNull(dataSource, "data source");
            return module(binder -> PostgresModule.useDataSource(binder, dataSource));
        }

        public Builder handler(String name, JobHandler handler) {
            handlers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(handler, "handler"));
            return this;
        }

        public Builder handler(NamedJobHandler handler) {
            return handler(handler.name(), handler);
        }

        /** Runs jobs of {@code type}, their payload bound to its record ({@code NON_RETRYABLE} when it cannot be). */
        public <T> Builder handler(JobType<T> type, TypedJobHandler<T> handler) {
            return handler(type.name(), type.handledBy(handler));
        }

        /** Where {@code ServiceLoader} looks for {@link NamedJobHandler}s (plugin jars). */
        public Builder handlerClassLoader(ClassLoader loader) {
            this.handlerLoader = Objects.requireNonNull(loader, "loader");
            return this;
        }

        /** Extra Guice modules, e.g. handlers registered with {@code Multibinder<NamedJobHandler>}. */
        public Builder module(Module module) {
            modules.add(Objects.requireNonNull(module, "module"));
            return this;
        }

        /**
         * Replaces the Redis and PostgreSQL modules with {@code module}, which must bind the transport's ports
         * ({@code JobPublisher}, {@code JobLeases}, {@code QueueMaintenance}, {@code QueueAdministration},
         * {@code ScheduleFires}), {@code ExecutionLedger}, {@code JobOutcomes} and {@code Migrator} (tests bind
         * in-memory adapters this way).
         */
        public Builder adapters(Module module) {
            this.adapters = Optional.of(module);
            return this;
        }

        /**
         * Adds an observer of the jobs' events (producers' and workers'), heard after the metrics' own. One that
         * implements {@code MaintenanceObserver} too hears the events of the worker's loops as well (reclaims, lost
         * leases, vanished entries, trims): one object can watch both without being added twice.
         */
        public Builder observer(JobObserver observer) {
            return module(BatonModules.observer(observer));
        }

        /** Baton's meters on the application's {@code registry}; the admin server's {@code /metrics} shows none. */
        public Builder meterRegistry(MeterRegistry registry) {
            return module(BatonModules.meterRegistry(registry));
        }

        /**
         * Calls {@code listener} once per dead letter (a job that failed for good, a poison or malformed entry),
         * after it was written, on the worker's thread: keep it quick. What it throws is logged, never the worker's
         * problem.
         */
        public Builder onDeadLetter(Consumer<DeadLetter> listener) {
            return observer(new DeadLetterListener(Objects.requireNonNull(listener, "listener")));
        }

        /** Traces jobs through {@code openTelemetry} instead of {@code GlobalOpenTelemetry} (docs/OPERATIONS.md). */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            return module(BatonModules.tracing(OpenTelemetryTracing.of(openTelemetry)));
        }

        /**
         * Whether the first started worker registers a JVM shutdown hook that closes this instance (default true):
         * turn it off when the application stops Baton itself on shutdown.
         */
        public Builder shutdownHook(boolean enabled) {
            this.shutdownHook = enabled;
            return this;
        }

        /** Fires {@code schedule}'s jobs while this instance runs a worker (or {@link Baton#startScheduler()}). */
        public Builder schedule(Schedule schedule) {
            schedules.add(Objects.requireNonNull(schedule, "schedule"));
            return this;
        }

        /** A schedule as a schedules file writes it, e.g. {@code schedule("tick", "every 10s", "metrics", "{}")}. */
        public Builder schedule(String name, String when, String queue, String payload) {
            return schedule(Schedule.of(name, when, queue, payload));
        }

        /** Every schedule of a schedules file ({@code name | schedule | queue | payload}), read at {@link #build()}. */
        public Builder schedulesFile(Path file) {
            schedules.addFile(Objects.requireNonNull(file, "schedules file"));
            return this;
        }

        public Builder clock(Clock newClock) {
            this.clock = Objects.requireNonNull(newClock, "clock");
            return this;
        }

        /**
         * @throws InvalidValueException when the JDBC URL is not PostgreSQL's, naming where it came from
         * @throws ConfigException       when a setting given on this builder breaks its rule, naming the call, or
         *                               a schedules file has a bad line, naming the file and line
         */
        public Baton build() {
            BatonConfig config = applyTo(jdbcUrl.map(this.config::withJdbcUrl).orElse(this.config));
            String jdbcUrlOrigin = jdbcUrl.isPresent() ? "Baton.builder().postgres(...)" : ENVIRONMENT_JDBC_URL;
            if (!config.jdbcUrl().startsWith("jdbc:postgresql:")) {
                throw new InvalidValueException(jdbcUrlOrigin + " must be a PostgreSQL JDBC URL (jdbc:postgresql:"
                        + "//host:port/database?user=...), got '" + Secrets.mask(config.jdbcUrl()) + "'");
            }
            List<Schedule> read = schedules.all();
            return new Baton(Guice.createInjector(modules(config)), config, shutdownHook, read);
        }

        private List<Module> modules(BatonConfig config) {
            List<Module> all = new ArrayList<>(BatonModules.core(config, clock));
            all.add(adapters.orElseGet(() -> BatonModules.adapters(config)));
            all.add(new HandlersModule(handlerLoader));
            Map<String, JobHandler> named = Map.copyOf(handlers);
            all.add(binder -> named.forEach((name, handler) -> HandlersModule.bind(binder, name, handler)));
            all.addAll(modules);
            return all;
        }
    }
}
