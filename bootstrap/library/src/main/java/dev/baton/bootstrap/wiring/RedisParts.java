package dev.baton.bootstrap.wiring;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.bootstrap.config.BatonConfig;
import java.time.Clock;

/** The stream transport on Redis: one adapter behind its ports, opened on first use and closed with the instance. */
final class RedisParts {
    private final Lazy<RedisAdapter> adapter;
    private final Lazy<Transport> transport;

    RedisParts(BatonConfig config, Clock clock, Closer closer) {
        this.adapter = new Lazy<>(() -> closer.register(RedisAdapter.open(RedisAdapter.Config.of(config.redisUri())
                .withClusterNodes(String.join(",", config.redisClusterNodes()))
                .withRequireServerAtOpen(config.requireServersAtStart())
                .withNamespace(config.namespace()), clock)));
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
