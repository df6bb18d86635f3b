package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.ProvidesIntoSet;
import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.port.out.EffectRecords;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.demo.DemoHandlers;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The execution ledger in PostgreSQL (exactly-once effects). Opening it migrates the schema, so that any command
 * works on a fresh schema; the demo tables come along (empty unless the demo handlers run) so that every command
 * applies the same migrations.
 */
public final class PostgresModule extends AbstractModule {

    @Provides
    @Singleton
    PostgresAdapter postgres(BatonConfig config, Clock clock, Closer closer) {
        PostgresAdapter.Config adapterConfig = new PostgresAdapter.Config(config.jdbcUrl(), config.schema(),
                config.poolSize(), true, config.retention(), locations(config))
                // a job's transaction lives no longer than its attempt: set once per connection, not per job
                .withTransactionTimeout(config.jobTimeout());
        return closer.register(PostgresAdapter.open(adapterConfig, clock));
    }

    private static List<String> locations(BatonConfig config) {
        List<String> locations = new ArrayList<>(List.of(DemoHandlers.MIGRATIONS));
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
    EffectRecords effectRecords(PostgresAdapter postgres) {
        return postgres.effectRecords();
    }

    @Provides
    Migrator migrator(Provider<PostgresAdapter> postgres) {
        return () -> postgres.get().migrate();
    }

    @ProvidesIntoSet
    HealthCheck postgresHealth(Provider<PostgresAdapter> postgres) {
        return new HealthCheck("postgres", () -> postgres.get().isReachable());
    }
}
