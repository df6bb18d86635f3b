package dev.baton.bootstrap.wiring;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.JOB_TIMEOUT;
import static dev.baton.bootstrap.config.Setting.MIGRATIONS;
import static dev.baton.bootstrap.config.Setting.REQUIRE_SERVERS_AT_START;
import static dev.baton.bootstrap.config.Setting.RETENTION;
import static dev.baton.bootstrap.config.Setting.SCHEMA;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.domain.Retention;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The execution ledger in PostgreSQL (exactly-once effects), with the outbox in its schema. Opening it migrates the
 * schema, so that any command works on a fresh one: the ledger's tables, then those of the handler libraries
 * ({@code BatonBuilder.handlerMigrations}: an embedding service that adds none never gets the demo's tables), then
 * {@code BATON_MIGRATIONS}. On the application's {@code DataSource}, the ledger and the migrations use its
 * connections and Baton opens no pool of its own.
 */
final class PostgresParts {
    private final Lazy<PostgresAdapter> adapter;
    private final Lazy<Ledger> ledger;

    PostgresParts(BatonConfig config, Clock clock, Closer closer, List<String> handlerMigrations,
                  Optional<DataSource> applicationDataSource) {
        this.adapter = new Lazy<>(() -> {
            PostgresAdapter.Config adapterConfig = new PostgresAdapter.Config(config.get(JDBC_URL), config.get(SCHEMA),
                    config.poolSize(), true, new Retention(config.get(RETENTION)), locations(handlerMigrations, config))
                    // a job's transaction lives no longer than its attempt: set once per connection, not per job
                    .withTransactionTimeout(config.get(JOB_TIMEOUT))
                    .withRequireServerAtOpen(config.get(REQUIRE_SERVERS_AT_START));
            return closer.register(applicationDataSource
                    .map(dataSource -> PostgresAdapter.open(adapterConfig, dataSource, clock))
                    .orElseGet(() -> PostgresAdapter.open(adapterConfig, clock)));
        });
        this.ledger = new Lazy<>(() -> {
            PostgresAdapter postgres = adapter.get();
            return new Ledger(postgres.ledger(), postgres.outcomes(), Optional.of(postgres.auditTrail()),
                    postgres::migrate);
        });
    }

    private static List<String> locations(List<String> handlerMigrations, BatonConfig config) {
        List<String> locations = new ArrayList<>(new LinkedHashSet<>(handlerMigrations));
        locations.addAll(config.get(MIGRATIONS));
        return locations;
    }

    PostgresAdapter adapter() {
        return adapter.get();
    }

    Ledger ledger() {
        return ledger.get();
    }

    HealthCheck health() {
        return new HealthCheck("postgres", () -> adapter().whyUnreachable());
    }
}
