package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.ProvidesIntoSet;
import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.demo.DemoHandlers;
import java.time.Clock;
import java.util.List;

/**
 * The execution ledger in PostgreSQL (exactly-once effects). Migrates on open, the demo tables included: they stay
 * empty unless the demo handlers run, and having them always keeps the migrations the same for every command.
 */
public final class PostgresModule extends AbstractModule {

    @Provides
    @Singleton
    PostgresAdapter postgres(BatonConfig config, Clock clock, Closer closer) {
        PostgresAdapter.Config adapterConfig = new PostgresAdapter.Config(config.jdbcUrl(), config.schema(),
                config.poolSize(), false, config.retention(), List.of(DemoHandlers.MIGRATIONS));
        return closer.register(PostgresAdapter.open(adapterConfig, clock));
    }

    @Provides
    @Singleton
    ExecutionLedger ledger(PostgresAdapter postgres) {
        return postgres.ledger();
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
