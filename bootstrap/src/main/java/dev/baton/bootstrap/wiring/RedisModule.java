package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.ProvidesIntoSet;
import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.bootstrap.config.BatonConfig;
import java.time.Clock;

/** The stream transport on Redis. */
public final class RedisModule extends AbstractModule {

    @Provides
    @Singleton
    RedisAdapter redis(BatonConfig config, Clock clock, Closer closer) {
        RedisAdapter.Config redis = RedisAdapter.Config.of(config.redisUri())
                .withClusterNodes(String.join(",", config.redisClusterNodes()));
        return closer.register(RedisAdapter.open(redis, clock));
    }

    @Provides
    @Singleton
    StreamTransport transport(RedisAdapter redis) {
        return redis.transport();
    }

    @ProvidesIntoSet
    HealthCheck redisHealth(Provider<RedisAdapter> redis) {
        return new HealthCheck("redis", () -> redis.get().isReachable());
    }
}
