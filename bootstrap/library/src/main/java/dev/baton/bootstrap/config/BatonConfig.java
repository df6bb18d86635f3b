package dev.baton.bootstrap.config;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.Backoff;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import dev.baton.domain.RetryPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Baton's validated configuration. Built by {@link ConfigLoader}; {@link #describe()} and {@link #redact} never
 * show a password.
 */
public record BatonConfig(String redisUri, List<String> redisClusterNodes, String jdbcUrl, String schema, Mode mode,
                          List<QueueName> queues, Duration lease, Duration idleThreshold, DeliveryLimit deliveryLimit,
                          RetryPolicy retryPolicy, Duration jobTimeout, Retention retention, int concurrency,
                          Duration grace, Duration cancelGrace, Duration noHandlerGrace, int poolSize,
                          int batchCommit,
                          JobThreads jobThreads,
                          Optional<AdminAddress> adminAddress, AdminUsers adminUsers,
                          Optional<Path> plugins, List<String> migrations, boolean relay,
                          boolean enqueueThroughOutbox) {

    public BatonConfig {
        Objects.requireNonNull(redisUri, "redis uri");
        redisClusterNodes = List.copyOf(redisClusterNodes);
        Objects.requireNonNull(jdbcUrl, "jdbc url");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(mode, "mode");
        queues = List.copyOf(queues);
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(idleThreshold, "idle threshold");
        Objects.requireNonNull(deliveryLimit, "delivery limit");
        Objects.requireNonNull(retryPolicy, "retry policy");
        Objects.requireNonNull(jobTimeout, "job timeout");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(cancelGrace, "cancel grace");
        Objects.requireNonNull(noHandlerGrace, "no-handler grace");
        Objects.requireNonNull(jobThreads, "job threads");
        Objects.requireNonNull(adminAddress, "admin address");
        Objects.requireNonNull(adminUsers, "admin users");
        Objects.requireNonNull(plugins, "plugins");
        migrations = List.copyOf(migrations);
    }

    /** The defaults alone (no environment, file or flags). */
    public static BatonConfig defaults() {
        return ConfigLoader.load(Map.of(), Optional.empty(), Map.of());
    }

    /** The environment's settings ({@code BATON_*}, and the properties file named by {@code BATON_CONFIG}). */
    public static BatonConfig fromEnvironment() {
        Map<String, String> env = System.getenv();
        return ConfigLoader.load(env, Optional.ofNullable(env.get(ConfigLoader.CONFIG_FILE_ENV)).map(Path::of),
                Map.of());
    }

    public BatonConfig withSchema(String newSchema) {
        return new BatonConfig(redisUri, redisClusterNodes, jdbcUrl, newSchema, mode, queues, lease, idleThreshold,
                deliveryLimit, retryPolicy, jobTimeout, retention, concurrency, grace, cancelGrace, noHandlerGrace,
                poolSize,
                batchCommit,
                jobThreads, adminAddress, adminUsers,
                plugins, migrations, relay, enqueueThroughOutbox);
    }

    public BatonConfig withRedisUri(String uri) {
        return new BatonConfig(uri, redisClusterNodes, jdbcUrl, schema, mode, queues, lease, idleThreshold,
                deliveryLimit, retryPolicy, jobTimeout, retention, concurrency, grace, cancelGrace, noHandlerGrace,
                poolSize,
                batchCommit,
                jobThreads, adminAddress, adminUsers,
                plugins, migrations, relay, enqueueThroughOutbox);
    }

    public BatonConfig withJdbcUrl(String url) {
        return new BatonConfig(redisUri, redisClusterNodes, url, schema, mode, queues, lease, idleThreshold,
                deliveryLimit, retryPolicy, jobTimeout, retention, concurrency, grace, cancelGrace, noHandlerGrace,
                poolSize,
                batchCommit,
                jobThreads, adminAddress, adminUsers,
                plugins, migrations, relay, enqueueThroughOutbox);
    }

    /** Adds migration locations of handlers' own tables, applied after the ledger's migrations. */
    public BatonConfig withMigrations(List<String> locations) {
        List<String> all = new ArrayList<>(migrations);
        all.addAll(locations);
        return new BatonConfig(redisUri, redisClusterNodes, jdbcUrl, schema, mode, queues, lease, idleThreshold,
                deliveryLimit, retryPolicy, jobTimeout, retention, concurrency, grace, cancelGrace, noHandlerGrace,
                poolSize,
                batchCommit,
                jobThreads, adminAddress, adminUsers,
                plugins, all, relay, enqueueThroughOutbox);
    }

    /**
     * Never shows a password: the record's own {@code toString} would print the endpoints' URIs as given.
     */
    @Override
    public String toString() {
        return "BatonConfig" + describe();
    }

    /** Replaces every password of the endpoints and admin users in {@code text} (an exception message, say). */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String redacted = Secrets.mask(text);
        List<String> secrets = new ArrayList<>(Secrets.find(redisUri));
        secrets.addAll(Secrets.find(jdbcUrl));
        secrets.addAll(adminUsers.secrets());
        for (String secret : secrets) {
            redacted = redacted.replace(secret, Secrets.MASK);
        }
        return redacted;
    }

    /** Every setting's effective value keyed by its flag name, passwords masked (start-up log, {@code baton config}). */
    public Map<String, String> describe() {
        Map<String, String> shown = new LinkedHashMap<>();
        shown.put(Setting.REDIS_URI.flagName(), Secrets.mask(redisUri));
        shown.put(Setting.REDIS_CLUSTER_NODES.flagName(), String.join(",", redisClusterNodes));
        shown.put(Setting.JDBC_URL.flagName(), Secrets.mask(jdbcUrl));
        shown.put(Setting.SCHEMA.flagName(), schema);
        shown.put(Setting.MODE.flagName(), mode.label());
        shown.put(Setting.QUEUES.flagName(), String.join(",", queues.stream().map(QueueName::value).toList()));
        shown.put(Setting.LEASE.flagName(), Durations.format(lease));
        shown.put(Setting.IDLE_THRESHOLD.flagName(), Durations.format(idleThreshold));
        shown.put(Setting.DELIVERY_LIMIT.flagName(), Integer.toString(deliveryLimit.maxDeliveries()));
        shown.put(Setting.MAX_ATTEMPTS.flagName(), Integer.toString(retryPolicy.maxAttempts()));
        if (retryPolicy.backoff() instanceof Backoff.Exponential exponential) {
            shown.put(Setting.BACKOFF_INITIAL.flagName(), Durations.format(exponential.initial()));
            shown.put(Setting.BACKOFF_MAX.flagName(), Durations.format(exponential.max()));
        }
        shown.put(Setting.JOB_TIMEOUT.flagName(), Durations.format(jobTimeout));
        shown.put(Setting.RETENTION.flagName(), Durations.format(retention.maxAge()));
        shown.put(Setting.CONCURRENCY.flagName(), Integer.toString(concurrency));
        shown.put(Setting.GRACE.flagName(), Durations.format(grace));
        shown.put(Setting.CANCEL_GRACE.flagName(), Durations.format(cancelGrace));
        shown.put(Setting.NO_HANDLER_GRACE.flagName(), Durations.format(noHandlerGrace));
        shown.put(Setting.POOL_SIZE.flagName(), Integer.toString(poolSize));
        shown.put(Setting.BATCH_COMMIT.flagName(), Integer.toString(batchCommit));
        shown.put(Setting.JOB_THREADS.flagName(), jobThreads.label());
        shown.put(Setting.ADMIN_ADDRESS.flagName(), adminAddress.map(AdminAddress::toString).orElse("off"));
        shown.put(Setting.ADMIN_VIEWER_PASSWORD.flagName(),
                Setting.ADMIN_VIEWER_PASSWORD.display(adminUsers.viewerPassword().orElse("")));
        shown.put(Setting.ADMIN_OPERATOR_PASSWORD.flagName(),
                Setting.ADMIN_OPERATOR_PASSWORD.display(adminUsers.operatorPassword().orElse("")));
        shown.put(Setting.PLUGINS.flagName(), plugins.map(Path::toString).orElse(""));
        shown.put(Setting.MIGRATIONS.flagName(), String.join(",", migrations));
        shown.put(Setting.RELAY.flagName(), relay ? "on" : "off");
        shown.put(Setting.ENQUEUE_THROUGH_OUTBOX.flagName(), enqueueThroughOutbox ? "on" : "off");
        return shown;
    }
}
