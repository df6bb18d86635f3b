package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.CodeSettings;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Durations;
import dev.baton.bootstrap.config.Secrets;
import dev.baton.bootstrap.config.Setting;
import dev.baton.domain.Backoff;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The {@code baton.*} properties as Baton's configuration: each set property through the builder's setting, so that
 * the environment's rule checks it, and a bad one fails the context naming the property and its value, e.g.
 * {@code baton.concurrency=0: must be in 1..10000}.
 */
final class PropertySettings extends CodeSettings<PropertySettings> {
    private static final String JDBC_PREFIX = "jdbc:postgresql:";

    private PropertySettings() {
        super("baton");
    }

    @Override
    protected PropertySettings self() {
        return this;
    }

    @Override
    protected String origin(Setting setting, String call, Object value) {
        return "baton." + setting.flagName() + "=" + setting.display(shown(value));
    }

    private static String shown(Object value) {
        if (value instanceof Duration duration) {
            return Durations.format(duration);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        return String.valueOf(value);
    }

    /** @throws ConfigException naming the property, when one breaks its rule */
    static BatonConfig config(BatonProperties properties) {
        PropertySettings settings = new PropertySettings();
        set(properties.getRedisUri(), settings::redis);
        listed(properties.getRedisClusterNodes(), nodes -> settings.redisClusterNodes(nodes.toArray(String[]::new)));
        set(properties.getSchema(), settings::schema);
        set(properties.getMode(), settings::mode);
        listed(properties.getMigrations(), locations -> settings.migrations(locations.toArray(String[]::new)));
        listed(properties.getQueues(), queues -> settings.queues(queues.toArray(String[]::new)));
        set(properties.getConcurrency(), settings::concurrency);
        set(properties.getMaxAttempts(), settings::maxAttempts);
        set(properties.getLease(), settings::lease);
        set(properties.getIdleThreshold(), settings::idleThreshold);
        set(properties.getDeliveryLimit(), settings::deliveryLimit);
        set(properties.getJobTimeout(), settings::jobTimeout);
        set(properties.getRetention(), settings::retention);
        set(properties.getGrace(), settings::grace);
        set(properties.getCancelGrace(), settings::cancelGrace);
        set(properties.getNoHandlerGrace(), settings::noHandlerGrace);
        set(properties.getPoolSize(), settings::poolSize);
        set(properties.getBatchCommit(), settings::batchCommit);
        set(properties.getJobThreads(), settings::jobThreads);
        set(properties.getEnqueueThroughOutbox(), settings::enqueueThroughOutbox);
        BatonConfig base = BatonConfig.defaults();
        if (properties.getBackoffInitial() != null || properties.getBackoffMax() != null) {
            Backoff.Exponential defaults = (Backoff.Exponential) base.retryPolicy().backoff();
            settings.backoff(Optional.ofNullable(properties.getBackoffInitial()).orElse(defaults.initial()),
                    Optional.ofNullable(properties.getBackoffMax()).orElse(defaults.max()));
        }
        return settings.applyTo(jdbcUrl(properties).map(base::withJdbcUrl).orElse(base));
    }

    /** Checked here rather than by the builder, whose message would name its own call instead of the property. */
    private static Optional<String> jdbcUrl(BatonProperties properties) {
        Optional<String> url = Optional.ofNullable(properties.getJdbcUrl());
        url.filter(given -> !given.startsWith(JDBC_PREFIX)).ifPresent(bad -> {
            throw new ConfigException("baton.jdbc-url=" + Secrets.mask(bad) + ": must be a PostgreSQL JDBC URL ("
                    + JDBC_PREFIX + "//host:port/database?user=...)");
        });
        return url;
    }

    private static <T> void set(T value, Consumer<T> setting) {
        if (value != null) {
            setting.accept(value);
        }
    }

    private static void listed(List<String> values, Consumer<List<String>> setting) {
        if (!values.isEmpty()) {
            setting.accept(values);
        }
    }
}
