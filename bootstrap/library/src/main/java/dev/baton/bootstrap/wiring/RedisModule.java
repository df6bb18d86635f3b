package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provider;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.ProvidesIntoSet;
import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.TransportMemory;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.bootstrap.config.BatonConfig;
import java.time.Clock;

/** The stream transport on Redis: its four ports and the schedules' watermarks, one adapter behind them. */
public final class RedisModule extends AbstractModule {

    @Provides
    @Singleton
    RedisAdapter redis(BatonConfig config, Clock clock, Closer closer) {
        RedisAdapter.Config redis = RedisAdapter.Config.of(config.redisUri())
                .withClusterNodes(String.join(",", config.redisClusterNodes()))
                .withRequireServerAtOpen(config.requireServersAtStart())
                .withNamespace(config.namespace());
        return closer.register(RedisAdapter.open(redis, clock));
    }

    @Provides
    @Singleton
    JobPublisher publisher(RedisAdapter redis) {
        return redis.publisher();
    }

    @Provides
    @Singleton
    TransportMemory memory(RedisAdapter redis) {
        return redis.memory();
    }

    @Provides
    @Singleton
    JobLeases leases(RedisAdapter redis) {
        return redis.leases();
    }

    @Provides
    @Singleton
    QueueMaintenance maintenance(RedisAdapter redis) {
        return redis.maintenance();
    }

    @Provides
    @Singleton
    QueueAdministration administration(RedisAdapter redis) {
        return redis.administration();
    }

    @Provides
    @Singleton
    QueueOverview overview(RedisAdapter redis) {
        return redis.overview();
    }

    @Provides
    @Singleton
    ScheduleFires scheduleFires(RedisAdapter redis) {
        return redis.scheduleFires();
    }

    @ProvidesIntoSet
    HealthCheck redisHealth(Provider<RedisAdapter> redis) {
        return new HealthCheck("redis", () -> redis.get().whyUnreachable());
    }
}
