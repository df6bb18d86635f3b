package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.ENQUEUE_THROUGH_OUTBOX;
import static dev.baton.bootstrap.config.Setting.GRACE;
import static dev.baton.bootstrap.config.Setting.RELAY;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.in.InspectOutboxUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.RecordAuditEntryUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.application.port.in.RunSchedulerUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.service.EnqueueService;
import dev.baton.bootstrap.admin.AdminServer;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.bootstrap.wiring.Components;
import dev.baton.bootstrap.wiring.HandlerRegistry;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.QueueName;
import dev.baton.domain.Schedule;
import dev.baton.domain.Uniqueness;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * the ledger's schema) and closed by {@link #close()}, which stops running workers gracefully first. Once a worker has
 * started, a shutdown hook closes too (unless {@link BatonBuilder#shutdownHook(boolean) turned off}): a {@code main}
 * that returns without {@code close()} still has what committed acknowledged.
 */
public final class Baton implements AutoCloseable {
    private final Components components;
    private final BatonConfig config;
    private final boolean closeAtShutdown;
    private final List<RunningWorker> workers = new CopyOnWriteArrayList<>();
    private final CloseAtShutdown shutdownHook = new CloseAtShutdown(this::close);
    private final List<Schedule> schedules;
    private final AtomicBoolean gaugesStarted = new AtomicBoolean();
    private RunSchedulerUseCase.RunningScheduler scheduler; // guarded by this

    Baton(Components components, BatonConfig config, boolean closeAtShutdown, List<Schedule> schedules) {
        this.components = components;
        this.config = config;
        this.closeAtShutdown = closeAtShutdown;
        this.schedules = List.copyOf(schedules);
    }

    public static BatonBuilder builder() {
        return new BatonBuilder();
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
        return enqueue(command, defaultRoute());
    }

    /**
     * Enqueues as {@code command} says, by {@code route}.
     *
     * @throws ConfigException for {@link EnqueueRoute#OUTBOX} without a PostgreSQL ledger (at-least-once mode)
     */
    public Job enqueue(EnqueueJobUseCase.Command command, EnqueueRoute route) {
        return enqueuer(route).enqueue(command);
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
        return enqueueUnique(command, uniqueness, defaultRoute());
    }

    /**
     * Enqueues a unique job directly: its key is checked atomically in Redis as it is published, which the outbox
     * cannot do.
     *
     * @throws UnsupportedOperationException for {@link EnqueueRoute#OUTBOX}, before anything is written
     */
    public EnqueueUniqueJobUseCase.Outcome enqueueUnique(EnqueueJobUseCase.Command command, Uniqueness uniqueness,
                                                         EnqueueRoute route) {
        if (route == EnqueueRoute.OUTBOX) {
            throw new UnsupportedOperationException("a unique job cannot be enqueued through the outbox (its key is "
                    + "checked atomically in Redis); pass EnqueueRoute.DIRECT to enqueue it directly even with "
                    + ENQUEUE_THROUGH_OUTBOX.envName() + "=on");
        }
        return enqueuer(route).enqueueUnique(new EnqueueUniqueJobUseCase.Command(command, uniqueness));
    }

    /** Enqueues many jobs in as few round trips as the transport allows (one statement through the outbox). */
    public List<Job> enqueueAll(List<EnqueueJobUseCase.Command> jobs) {
        return enqueueAll(jobs, defaultRoute());
    }

    /** Enqueues many jobs by {@code route}: through the outbox, all in one short transaction. */
    public List<Job> enqueueAll(List<EnqueueJobUseCase.Command> jobs, EnqueueRoute route) {
        return enqueuer(route).enqueueAll(new EnqueueJobsUseCase.Command(jobs));
    }

    private EnqueueRoute defaultRoute() {
        return config.get(ENQUEUE_THROUGH_OUTBOX) ? EnqueueRoute.OUTBOX : EnqueueRoute.DIRECT;
    }

    /**
     * Through the outbox, this instance relays too (unless {@code BATON_RELAY=off}): the commit wakes its relay, so
     * a job reaches Redis without waiting for another process.
     */
    private EnqueueService enqueuer(EnqueueRoute route) {
        if (route == EnqueueRoute.DIRECT) {
            return components.enqueue();
        }
        EnqueueService throughOutbox = components.outboxEnqueue();
        if (config.get(RELAY)) {
            relay();
        }
        return throughOutbox;
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

    /**
     * Cancels a job: a waiting or delayed one never runs, a running one's handler sees {@code context.cancelled()}
     * and is interrupted after the cancel grace; with a ledger, the answer is the ledger's (HANDLERS.md,
     * OPERATIONS.md).
     */
    public CancelJobUseCase.Answer cancel(QueueName queue, JobId id) {
        return use(CancelJobUseCase.class).cancel(new CancelJobUseCase.Command(queue, id));
    }

    /**
     * Starts a worker on {@code queues} with the configured concurrency: a typed job runs under the handler of its
     * type, an untyped one under the handler named like its queue (docs/HANDLERS.md#registering-a-handler).
     */
    public RunningWorker start(String... queues) {
        List<QueueName> names = Arrays.stream(queues).map(QueueName::of).toList();
        return start(new RunWorkerUseCase.Command(names, consumer(), config.get(CONCURRENCY), Optional.empty()));
    }

    /**
     * Starts a worker; {@link #close()} (or the shutdown hook) stops it within the configured grace period.
     *
     * @throws ConfigException when no handler is registered, or the handler the command names does not exist: such a
     *                         worker could run no job
     */
    public RunningWorker start(RunWorkerUseCase.Command command) {
        HandlerRegistry.requireHandlers(handlers(), command.queues(), command.handler());
        components.queues().add(command.queues());
        RunningWorker worker = use(RunWorkerUseCase.class).start(command);
        components.startJanitor(); // started with the first worker, one for all of them
        if (config.get(RELAY) && components.hasOutbox()) {
            relay();
        }
        Duration grace = config.get(GRACE);
        components.closer().register(() -> worker.stop(grace));
        workers.add(worker);
        startScheduler();
        if (closeAtShutdown) {
            shutdownHook.register();
        }
        return worker;
    }

    /** The schedules this instance fires ({@link BatonBuilder#schedule}, {@link BatonBuilder#schedulesFile}). */
    public List<Schedule> schedules() {
        return schedules;
    }

    /**
     * Starts firing the schedules, unless already started (the first worker starts it too). Every instance may: each
     * fire time's job is enqueued once, whichever fires it first. Stopped by {@link #close()}.
     */
    public synchronized void startScheduler() {
        if (scheduler == null && !schedules.isEmpty()) {
            scheduler = components.closer().register(use(RunSchedulerUseCase.class)
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
        components.startRelay();
    }

    /**
     * Enqueues jobs inside your own PostgreSQL transaction, on your connection: they run once it commits, never when
     * it rolls back (docs/HANDLERS.md#enqueueing-in-your-transaction).
     *
     * @throws ConfigException without a PostgreSQL ledger (at-least-once mode)
     */
    public PostgresAdapter.Outbox outbox() {
        return components.transactionalOutbox();
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

    /**
     * Any inbound port (use case) of the application, e.g. {@code use(InspectQueueUseCase.class)}; also the ports
     * and adapters Baton runs on ({@code RedisAdapter}, {@code JobLeases}, ...), its {@code WorkerSettings} and its
     * {@code MeterRegistry}, for tools that go below the use cases.
     *
     * @throws IllegalArgumentException for any other type, naming the types it answers
     * @throws ConfigException          for a part this instance does not have (the outbox's, without a ledger)
     */
    public <T> T use(Class<T> type) {
        return components.use(type);
    }

    /** The handlers this instance knows, by name. */
    public JobHandlers handlers() {
        return components.handlers();
    }

    /** Brings the ledger's schema up to date (opening the ledger, on first use, does it too). */
    public void migrate() {
        components.migrate();
    }

    /**
     * Starts the admin HTTP server on the configured address, and the per-queue gauges behind {@code /metrics}.
     *
     * @return the bound address, empty when the admin address is {@code off}
     */
    public Optional<InetSocketAddress> startAdmin() {
        startGauges();
        return config.adminAddress().map(address -> components.closer().register(AdminServer.start(address, config,
                components.clock(), AdminEndpoints.all(components, config, this::outboxBacklog),
                components.use(RecordAuditEntryUseCase.class))).address());
    }

    /**
     * Starts the per-queue gauges (and the outbox's, with a ledger) on the meter registry, refreshed in the
     * background; once, however often it is called. {@link #startAdmin} does it; an application that scrapes its own
     * registry (Spring Boot's) calls it alone.
     */
    public void startGauges() {
        if (gaugesStarted.compareAndSet(false, true)) {
            components.closer().register(components.queueGauges());
            if (components.hasOutbox()) {
                components.closer().register(components.outboxGauges());
            }
        }
    }

    /** The outbox's rows waiting, the oldest one's age and the malformed rows; empty without a PostgreSQL ledger. */
    public Optional<OutboxBacklog> outboxBacklog() {
        return components.hasOutbox() ? Optional.of(use(InspectOutboxUseCase.class).inspect()) : Optional.empty();
    }

    /** Whether each dependency (redis, postgres) answers now. */
    public Map<String, Boolean> health() {
        Map<String, Boolean> health = new LinkedHashMap<>();
        healthProblems().forEach((name, problem) -> health.put(name, problem.isEmpty()));
        return health;
    }

    /**
     * Each dependency (redis, postgres) by name: empty when it answers now, else why not (since when, and the last
     * error; never a password). Opening an instance never waits for them unless {@code BATON_REQUIRE_SERVERS_AT_START}.
     */
    public Map<String, Optional<String>> healthProblems() {
        Map<String, Optional<String>> problems = new LinkedHashMap<>();
        components.healthChecks().forEach(check -> problems.put(check.name(), check.problem()));
        return problems;
    }

    /** Stops workers gracefully, then closes servers and connections, in reverse order of opening. */
    @Override
    public void close() {
        shutdownHook.remove();
        components.closer().close();
    }

    /**
     * The consumer name of this process's workers: {@code BATON_CONSUMER}, else {@link #defaultConsumer()}. A worker
     * under a name a live worker holds runs as {@code <name>-2}, {@code <name>-3}, …
     * ({@link RunningWorker#consumer()}).
     */
    public ConsumerName consumer() {
        return config.consumer().orElseGet(Baton::defaultConsumer);
    }

    /**
     * The pod's name in Kubernetes ({@code HOSTNAME}, which Kubernetes sets to it) or the host name: stable across
     * restarts, so a restarted worker resumes its own pending entries.
     */
    public static ConsumerName defaultConsumer() {
        return HostConsumer.name();
    }
}
