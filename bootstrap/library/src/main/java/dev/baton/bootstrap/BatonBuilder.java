package dev.baton.bootstrap;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.CodeSettings;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.bootstrap.jobs.TypedJobHandler;
import dev.baton.bootstrap.tracing.OpenTelemetryTracing;
import dev.baton.bootstrap.wiring.Adapters;
import dev.baton.bootstrap.wiring.Components;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Schedule;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Builds a {@link Baton}: starts from the defaults (or {@link #config}, e.g. {@code BatonConfig.fromEnvironment()})
 * and Redis + PostgreSQL; handlers come from {@link #handler}, {@link #handlers} and {@code ServiceLoader}.
 * Every setting of the environment can be given here too, {@code set(Setting.CONCURRENCY, 4)} ({@link CodeSettings}):
 * such a value beats the base configuration, whatever the order of the calls, and is checked by the environment's
 * rule at {@link #build()}.
 */
public final class BatonBuilder extends CodeSettings<BatonBuilder> {
    private BatonConfig config = BatonConfig.defaults();
    private final Map<String, JobHandler> handlers = new LinkedHashMap<>();
    private final List<NamedJobHandler> namedHandlers = new ArrayList<>();
    private final List<String> handlerMigrations = new ArrayList<>();
    private final List<JobObserver> observers = new ArrayList<>();
    private Optional<MeterRegistry> meterRegistry = Optional.empty();
    private Optional<JobTracing> tracing = Optional.empty();
    private Optional<DataSource> dataSource = Optional.empty();
    private Optional<Adapters> adapters = Optional.empty();
    private ClassLoader handlerLoader = Baton.class.getClassLoader();
    private Clock clock = Clock.systemUTC();
    private boolean shutdownHook = true;
    private final Schedules schedules = new Schedules();

    BatonBuilder() {
        super("Baton.builder()");
    }

    @Override
    protected BatonBuilder self() {
        return this;
    }

    /** The base configuration, below the settings given on this builder. */
    public BatonBuilder config(BatonConfig newConfig) {
        this.config = Objects.requireNonNull(newConfig, "config");
        return this;
    }

    /**
     * The ledger (and the migrations) use the application's pool instead of opening one of Baton's own; {@link
     * Baton#close()} leaves it open. The JDBC URL and the pool size no longer apply.
     */
    public BatonBuilder dataSource(DataSource dataSource) {
        this.dataSource = Optional.of(Objects.requireNonNull(dataSource, "data source"));
        return this;
    }

    public BatonBuilder handler(String name, JobHandler handler) {
        handlers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(handler, "handler"));
        return this;
    }

    public BatonBuilder handler(NamedJobHandler handler) {
        return handler(handler.name(), handler);
    }

    /** Runs jobs of {@code type}, their payload bound to its record ({@code NON_RETRYABLE} when it cannot be). */
    public <T> BatonBuilder handler(JobType<T> type, TypedJobHandler<T> handler) {
        return handler(type.name(), type.handledBy(handler));
    }

    /**
     * Runs jobs with each of {@code namedHandlers}, under its name: a handler library's handlers in one call. A name
     * given twice (here, to {@link #handler}, or by a plugin) is a {@link ConfigException} when the handlers are
     * first needed.
     */
    public BatonBuilder handlers(Collection<? extends NamedJobHandler> namedHandlers) {
        namedHandlers.forEach(handler -> this.namedHandlers.add(Objects.requireNonNull(handler, "handler")));
        return this;
    }

    /**
     * Adds migration locations of a handler library's own tables (e.g. {@code classpath:db/shop}), applied whenever the
     * ledger opens, after the ledger's migrations and before {@code BATON_MIGRATIONS}. Unlike the setting
     * {@link #migrations}, each call adds to the earlier ones: the code that registers handlers brings their tables.
     */
    public BatonBuilder handlerMigrations(String... locations) {
        for (String location : locations) {
            handlerMigrations.add(Objects.requireNonNull(location, "location"));
        }
        return this;
    }

    /** Where {@code ServiceLoader} looks for {@link NamedJobHandler}s (plugin jars). */
    public BatonBuilder handlerClassLoader(ClassLoader loader) {
        this.handlerLoader = Objects.requireNonNull(loader, "loader");
        return this;
    }

    /**
     * Runs on {@code adapters} instead of Redis and PostgreSQL: the transport's ports, the ledger's and their health
     * checks, given whole (tests give the in-memory adapters this way). There is no outbox on them.
     */
    public BatonBuilder adapters(Adapters adapters) {
        this.adapters = Optional.of(Objects.requireNonNull(adapters, "adapters"));
        return this;
    }

    /**
     * Adds an observer of the jobs' events (producers' and workers'), heard after the metrics' own. One that
     * implements {@code MaintenanceObserver} too hears the events of the worker's loops as well (reclaims, lost
     * leases, vanished entries, trims): one object can watch both without being added twice.
     */
    public BatonBuilder observer(JobObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
        return this;
    }

    /**
     * Baton's meters on the application's {@code registry} instead of Baton's own; the admin server's {@code /metrics}
     * then answers 404, naming the application's registry as the place to scrape.
     */
    public BatonBuilder meterRegistry(MeterRegistry registry) {
        this.meterRegistry = Optional.of(Objects.requireNonNull(registry, "meter registry"));
        return this;
    }

    /**
     * Calls {@code listener} once per dead letter (a job that failed for good, a poison or malformed entry),
     * after it was written, on the worker's thread: keep it quick. What it throws is logged, never the worker's
     * problem.
     */
    public BatonBuilder onDeadLetter(Consumer<DeadLetter> listener) {
        return observer(new DeadLetterListener(Objects.requireNonNull(listener, "listener")));
    }

    /** Traces jobs through {@code openTelemetry} instead of {@code GlobalOpenTelemetry} (docs/OPERATIONS.md). */
    public BatonBuilder openTelemetry(OpenTelemetry openTelemetry) {
        this.tracing = Optional.of(OpenTelemetryTracing.of(Objects.requireNonNull(openTelemetry, "openTelemetry")));
        return this;
    }

    /**
     * Whether the first started worker registers a JVM shutdown hook that closes this instance (default true):
     * turn it off when the application stops Baton itself on shutdown.
     */
    public BatonBuilder shutdownHook(boolean enabled) {
        this.shutdownHook = enabled;
        return this;
    }

    /** Fires {@code schedule}'s jobs while this instance runs a worker (or {@link Baton#startScheduler()}). */
    public BatonBuilder schedule(Schedule schedule) {
        schedules.add(Objects.requireNonNull(schedule, "schedule"));
        return this;
    }

    /** A schedule as a schedules file writes it, e.g. {@code schedule("tick", "every 10s", "metrics", "{}")}. */
    public BatonBuilder schedule(String name, String when, String queue, String payload) {
        return schedule(Schedule.of(name, when, queue, payload));
    }

    /** Every schedule of a schedules file ({@code name | schedule | queue | payload}), read at {@link #build()}. */
    public BatonBuilder schedulesFile(Path file) {
        schedules.addFile(Objects.requireNonNull(file, "schedules file"));
        return this;
    }

    public BatonBuilder clock(Clock newClock) {
        this.clock = Objects.requireNonNull(newClock, "clock");
        return this;
    }

    /**
     * @throws ConfigException when a setting given on this builder breaks its rule, naming the call, or a schedules
     *                         file has a bad line, naming the file and line
     */
    public Baton build() {
        BatonConfig config = over(this.config);
        List<Schedule> read = schedules.all();
        Components components = new Components(config, new Components.Given(clock, handlers, namedHandlers,
                handlerLoader, observers, meterRegistry, tracing, dataSource, handlerMigrations, adapters));
        return new Baton(components, config, shutdownHook, read);
    }
}
