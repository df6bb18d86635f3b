package dev.baton.bootstrap.wiring;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Setting;
import java.time.Clock;

/** The stream transport on Redis: one adapter behind its ports, opened on first use and closed with the instance. */
final class RedisParts {
    private final Lazy<RedisAdapter> adapter;
    private final Lazy<Transport> transport;

    RedisParts(BatonConfig config, Clock clock, Closer closer) {
        this.adapter = new Lazy<>(() -> closer.register(RedisAdapter.open(RedisAdapter.Config.of(config.get(Setting.REDIS_URI))
                .withClusterNodes(String.join(",", config.get(Setting.REDIS_CLUSTER_NODES)))
                .withRequireServerAtOpen(config.get(Setting.REQUIRE_SERVERS_AT_START))
                .withNamespace(config.get(Setting.NAMESPACE)), clock)));
        this.transport = new Lazy<>(() -> {
            RedisAdapter redis = adapter.get();
            return new Transport(redis.publisher(), redis.leases(), redis.maintenance(), redis.administration(),
                    redis.overview(), redis.scheduleFires());
        });
    }

    RedisAdapter adapter() {
        return adapter.get();
    }

    Transport transport() {
        return transport.get();
    }

    HealthCheck health() {
        return new HealthCheck("redis", () -> adapter().whyUnreachable());
    }
}
