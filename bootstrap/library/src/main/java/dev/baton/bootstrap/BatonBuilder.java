package dev.baton.bootstrap;

import com.google.inject.Guice;
import com.google.inject.Module;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.port.out.JobObserver;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.CodeSettings;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Secrets;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.bootstrap.jobs.TypedJobHandler;
import dev.baton.bootstrap.tracing.OpenTelemetryTracing;
import dev.baton.bootstrap.wiring.BatonModules;
import dev.baton.bootstrap.wiring.HandlersModule;
import dev.baton.bootstrap.wiring.Migrator;
import dev.baton.bootstrap.wiring.PostgresModule;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Schedule;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Builds a {@link Baton}: starts from the defaults (or {@link #config}, e.g. {@code BatonConfig.fromEnvironment()})
 * and Redis + PostgreSQL; handlers come from {@link #handler}, Guice {@link #module}s and {@code ServiceLoader}.
 * Every setting of the environment can be given here too ({@link CodeSettings}): such a value beats the base
 * configuration, whatever the order of the calls, and is checked by the environment's rule at {@link #build()}.
 */
public final class BatonBuilder extends CodeSettings<BatonBuilder> {
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

    public BatonBuilder postgres(String url) {
        this.jdbcUrl = Optional.of(Objects.requireNonNull(url, "jdbc url"));
        return this;
    }

    /**
     * The ledger (and the migrations) use the application's pool instead of opening one of Baton's own; {@link
     * Baton#close()} leaves it open. The JDBC URL and the pool size no longer apply.
     */
    public BatonBuilder dataSource(DataSource dataSource) {
        Objects.requireNonNull(dataSource, "data source");
        return module(binder -> PostgresModule.useDataSource(binder, dataSource));
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

    /** Where {@code ServiceLoader} looks for {@link NamedJobHandler}s (plugin jars). */
    public BatonBuilder handlerClassLoader(ClassLoader loader) {
        this.handlerLoader = Objects.requireNonNull(loader, "loader");
        return this;
    }

    /** Extra Guice modules, e.g. handlers registered with {@code Multibinder<NamedJobHandler>}. */
    public BatonBuilder module(Module module) {
        modules.add(Objects.requireNonNull(module, "module"));
        return this;
    }

    /**
     * Replaces the Redis and PostgreSQL modules with {@code module}, which must bind the transport's ports
     * ({@code JobPublisher}, {@code JobLeases}, {@code QueueMaintenance}, {@code QueueAdministration},
     * {@code QueueOverview}, {@code ScheduleFires}), {@code ExecutionLedger}, {@code JobOutcomes} and {@code Migrator} (tests bind
     * in-memory adapters this way).
     */
    public BatonBuilder adapters(Module module) {
        this.adapters = Optional.of(module);
        return this;
    }

    /**
     * Adds an observer of the jobs' events (producers' and workers'), heard after the metrics' own. One that
     * implements {@code MaintenanceObserver} too hears the events of the worker's loops as well (reclaims, lost
     * leases, vanished entries, trims): one object can watch both without being added twice.
     */
    public BatonBuilder observer(JobObserver observer) {
        return module(BatonModules.observer(observer));
    }

    /** Baton's meters on the application's {@code registry}; the admin server's {@code /metrics} shows none. */
    public BatonBuilder meterRegistry(MeterRegistry registry) {
        return module(BatonModules.meterRegistry(registry));
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
        return module(BatonModules.tracing(OpenTelemetryTracing.of(openTelemetry)));
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
