package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.Key;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import com.google.inject.multibindings.OptionalBinder;
import com.google.inject.multibindings.ProvidesIntoSet;
import com.google.inject.name.Named;
import com.google.inject.name.Names;
import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.port.in.InspectOutboxUseCase;
import dev.baton.application.port.out.EffectRecords;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TransportMemory;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.InspectOutboxService;
import dev.baton.application.service.OutboxRelay;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.metrics.OutboxGauges;
import dev.baton.domain.PayloadLimit;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The execution ledger in PostgreSQL (exactly-once effects). Opening it migrates the schema, so that any command
 * works on a fresh schema: the ledger's tables, then those of the handler modules that {@link #addMigrations add a
 * location} (the demo handlers do: an embedding service that does not install them never gets their tables), then
 * {@code BATON_MIGRATIONS}. On the application's {@link #useDataSource DataSource}, the ledger and the migrations use
 * its connections and Baton opens no pool of its own.
 */
public final class PostgresModule extends AbstractModule {
    private static final String MODULE_MIGRATIONS = "baton.module-migrations";
    private static final String APPLICATION_DATA_SOURCE = "baton.application-data-source";
    /** The enqueue service that writes the outbox in transactions of its own (BATON_ENQUEUE_THROUGH_OUTBOX). */
    public static final Key<EnqueueService> THROUGH_OUTBOX = Key.get(EnqueueService.class,
            Names.named("baton.through-outbox"));

    /** Adds a migration location of a handler module's tables, applied with the ledger's whenever it is opened. */
    public static void addMigrations(Binder binder, String location) {
        moduleMigrations(binder).addBinding().toInstance(location);
    }

    private static Multibinder<String> moduleMigrations(Binder binder) {
        return Multibinder.newSetBinder(binder, String.class, Names.named(MODULE_MIGRATIONS));
    }

    /** Runs the ledger on the application's pool instead of one of Baton's own, which it leaves open. */
    public static void useDataSource(Binder binder, DataSource dataSource) {
        applicationDataSource(binder).setBinding().toInstance(dataSource);
    }

    private static OptionalBinder<DataSource> applicationDataSource(Binder binder) {
        return OptionalBinder.newOptionalBinder(binder, Key.get(DataSource.class, Names.named(APPLICATION_DATA_SOURCE)));
    }

    @Override
    protected void configure() {
        moduleMigrations(binder()); // the set exists, empty, when no module adds a location
        applicationDataSource(binder());
    }

    @Provides
    @Singleton
    PostgresAdapter postgres(BatonConfig config, Clock clock, Closer closer,
                             @Named(MODULE_MIGRATIONS) Set<String> moduleMigrations,
                             @Named(APPLICATION_DATA_SOURCE) Optional<DataSource> applicationDataSource) {
        PostgresAdapter.Config adapterConfig = new PostgresAdapter.Config(config.jdbcUrl(), config.schema(),
                config.poolSize(), true, config.retention(), locations(moduleMigrations, config))
                // a job's transaction lives no longer than its attempt: set once per connection, not per job
                .withTransactionTimeout(config.jobTimeout())
                .withRequireServerAtOpen(config.requireServersAtStart());
        return closer.register(applicationDataSource
                .map(dataSource -> PostgresAdapter.open(adapterConfig, dataSource, clock))
                .orElseGet(() -> PostgresAdapter.open(adapterConfig, clock)));
    }

    private static List<String> locations(Set<String> moduleMigrations, BatonConfig config) {
        List<String> locations = new ArrayList<>(moduleMigrations);
        locations.addAll(config.migrations());
        return locations;
    }

    @Provides
    @Singleton
    ExecutionLedger ledger(PostgresAdapter postgres) {
        return postgres.ledger();
    }

    @Provides
    @Singleton
    JobOutcomes outcomes(PostgresAdapter postgres) {
        return postgres.outcomes();
    }

    @Provides
    @Singleton
    EffectRecords effectRecords(PostgresAdapter postgres) {
        return postgres.effectRecords();
    }

    /** One per instance, started on first use and stopped with the instance, however many workers it runs. */
    @Provides
    @Singleton
    OutboxRelay relay(PostgresAdapter postgres, JobPublisher publisher, JobOutcomes outcomes, TransportMemory memory,
                      Clock clock, MaintenanceObserver observer, JobObserver jobObserver, Closer closer) {
        return closer.register(new OutboxRelay(postgres.jobOutbox(), publisher, outcomes, memory, PayloadLimit.DEFAULT,
                clock, OutboxRelay.Settings.DEFAULTS, observer, jobObserver)).start();
    }

    /** Its jobs count as enqueued when the relay publishes them, as every outbox row's do, not here. */
    @Provides
    @Singleton
    @Named("baton.through-outbox")
    EnqueueService throughOutbox(PostgresAdapter postgres, Clock clock, JobTracing tracing) {
        return new EnqueueService(postgres.outboxPublisher(), clock, PayloadLimit.DEFAULT, JobObserver.NONE, tracing);
    }

    @Provides
    @Singleton
    InspectOutboxUseCase inspectOutbox(PostgresAdapter postgres, Clock clock) {
        return new InspectOutboxService(postgres.jobOutbox(), clock);
    }

    @Provides
    @Singleton
    OutboxGauges outboxGauges(InspectOutboxUseCase inspect, MeterRegistry registry) {
        return new OutboxGauges(inspect, registry, MetricsModule.GAUGE_REFRESH);
    }

    @Provides
    Migrator migrator(Provider<PostgresAdapter> postgres) {
        return () -> postgres.get().migrate();
    }

    @ProvidesIntoSet
    HealthCheck postgresHealth(Provider<PostgresAdapter> postgres) {
        return new HealthCheck("postgres", () -> postgres.get().whyUnreachable());
    }
}
