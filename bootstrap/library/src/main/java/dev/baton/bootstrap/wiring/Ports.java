package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.service.AtLeastOnceExecution;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.config.Setting;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Where the ports come from: Redis, plus PostgreSQL in exactly-once mode, each opened on first use; or adapters given
 * whole. {@code health} are the checks of {@code /health/ready}.
 */
record Ports(Supplier<Transport> transport, Supplier<Ledger> ledger, Optional<RedisParts> redis,
             Optional<PostgresParts> postgres, List<HealthCheck> health) {

    static Ports given(Adapters adapters) {
        return new Ports(adapters::transport, adapters::ledger, Optional.empty(), Optional.empty(), adapters.health());
    }

    static Ports opened(BatonConfig config, Clock clock, Closer closer, List<String> handlerMigrations,
                        Optional<DataSource> applicationDataSource) {
        RedisParts redis = new RedisParts(config, clock, closer);
        if (config.get(Setting.MODE) == Mode.EXACTLY_ONCE) {
            PostgresParts postgres = new PostgresParts(config, clock, closer, handlerMigrations,
                    applicationDataSource);
            return new Ports(redis::transport, postgres::ledger, Optional.of(redis), Optional.of(postgres),
                    List.of(redis.health(), postgres.health()));
        }
        // no ledger (BATON_MODE=at-least-once): PostgreSQL is never opened and handlers must be idempotent
        Ledger none = new Ledger(new AtLeastOnceExecution(clock), JobOutcomes.NOT_RECORDED, () -> { });
        return new Ports(redis::transport, () -> none, Optional.of(redis), Optional.empty(),
                List.of(redis.health()));
    }
}
