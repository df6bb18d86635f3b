package dev.baton.bootstrap.wiring;

import static dev.baton.bootstrap.config.Setting.NAMESPACE;
import static dev.baton.bootstrap.config.Setting.REDIS_CLUSTER_NODES;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.REQUIRE_SERVERS_AT_START;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.bootstrap.config.BatonConfig;
import java.time.Clock;

/** The stream transport on Redis: one adapter behind its ports, opened on first use and closed with the instance. */
final class RedisParts {
    private final Lazy<RedisAdapter> adapter;
    private final Lazy<Transport> transport;

    RedisParts(BatonConfig config, Clock clock, Closer closer) {
        this.adapter = new Lazy<>(() -> closer.register(RedisAdapter.open(RedisAdapter.Config.of(config.get(REDIS_URI))
                .withClusterNodes(String.join(",", config.get(REDIS_CLUSTER_NODES)))
                .withRequireServerAtOpen(config.get(REQUIRE_SERVERS_AT_START))
                .withNamespace(config.get(NAMESPACE)), clock)));
        this.transport = new Lazy<>(() -> {
            RedisAdapter redis = adapter.get();
            return new Transport(redis.publisher(), redis.leases(), redis.maintenance(), redis.administration(),
                    redis.delayedJobs(), redis.overview(), redis.scheduleFires());
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
