package dev.baton.bootstrap.config;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.BatonException;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The settings a builder takes in code, each checked at {@link #applyTo} by the rule {@link ConfigLoader} applies to
 * the same setting's text, so the ranges cannot drift apart. A value given here beats the base configuration
 * (defaults or environment), whatever the call order; a bad one names the builder call, e.g.
 * {@code Baton.builder().concurrency(0): must be in 1..10000}.
 *
 * @param <B> the builder, returned by every call
 */
public abstract class CodeSettings<B extends CodeSettings<B>> {
    private final String owner;
    private final Map<Setting, Given> given = new EnumMap<>(Setting.class);

    /** @param owner how the builder is reached in the caller's code: {@code Baton.builder()} */
    protected CodeSettings(String owner) {
        this.owner = owner;
    }

    private record Given(String call, Object value) {
    }

    protected abstract B self();

    private B set(Setting setting, String call, Object value) {
        given.put(setting, new Given(call, Objects.requireNonNull(value, setting.flagName())));
        return self();
    }

    private B duration(Setting setting, String method, Duration duration) {
        return set(setting, method + "(" + Durations.format(duration) + ")", duration);
    }

    private B number(Setting setting, String method, int number) {
        return set(setting, method + "(" + number + ")", number);
    }

    private static String quoted(String text) {
        return "'" + text + "'";
    }

    /**
     * The Redis endpoint ({@code BATON_REDIS_URI}): {@code redis://host:port}, {@code rediss://} for TLS, {@code
     * redis-sentinel://host:port,host:port#masterName} for Sentinel.
     */
    public B redis(String uri) {
        return set(Setting.REDIS_URI, "redis(" + quoted(Secrets.mask(uri)) + ")", uri);
    }

    /** Redis Cluster nodes, {@code host:port} each, seeding a cluster client with the Redis URI's host. */
    public B redisClusterNodes(String... nodes) {
        return set(Setting.REDIS_CLUSTER_NODES, "redisClusterNodes(" + String.join(", ", nodes) + ")",
                String.join(",", nodes));
    }

    /** The PostgreSQL schema of the ledger and of the handlers' tables ({@code BATON_SCHEMA}). */
    public B schema(String schema) {
        return set(Setting.SCHEMA, "schema(" + quoted(schema) + ")", schema);
    }

    /** Migration locations of the handlers' own tables, applied after the ledger's (e.g. {@code classpath:db/shop}). */
    public B migrations(String... locations) {
        return set(Setting.MIGRATIONS, "migrations(" + String.join(", ", locations) + ")", List.of(locations));
    }

    /** {@code BATON_MODE}: exactly-once (the PostgreSQL ledger) or at-least-once (no ledger). */
    public B mode(Mode mode) {
        return set(Setting.MODE, "mode(" + mode + ")", mode);
    }

    /** The queues that the admin API and the queue gauges report ({@code BATON_QUEUES}). */
    public B queues(String... queues) {
        return set(Setting.QUEUES, "queues(" + String.join(", ", queues) + ")", List.of(queues));
    }

    /** Jobs a worker runs at once ({@code BATON_CONCURRENCY}). */
    public B concurrency(int jobs) {
        return number(Setting.CONCURRENCY, "concurrency", jobs);
    }

    /** Attempts in all, the first included, before a failing job is dead-lettered ({@code BATON_MAX_ATTEMPTS}). */
    public B maxAttempts(int attempts) {
        return number(Setting.MAX_ATTEMPTS, "maxAttempts", attempts);
    }

    /** Delay before the first retry, doubling up to {@code max} ({@code BATON_BACKOFF_INITIAL}, {@code _MAX}). */
    public B backoff(Duration initial, Duration max) {
        String call = "backoff(" + Durations.format(initial) + ", " + Durations.format(max) + ")";
        set(Setting.BACKOFF_INITIAL, call, initial);
        return set(Setting.BACKOFF_MAX, call, max);
    }

    /** How long a delivery stays with a worker before others may reclaim it ({@code BATON_LEASE}). */
    public B lease(Duration lease) {
        return duration(Setting.LEASE, "lease", lease);
    }

    /** Consumers silent for longer and owning nothing leave the group ({@code BATON_IDLE_THRESHOLD}). */
    public B idleThreshold(Duration threshold) {
        return duration(Setting.IDLE_THRESHOLD, "idleThreshold", threshold);
    }

    /** Deliveries without an outcome before a job is poison ({@code BATON_DELIVERY_LIMIT}). */
    public B deliveryLimit(int deliveries) {
        return number(Setting.DELIVERY_LIMIT, "deliveryLimit", deliveries);
    }

    /** An attempt running longer is interrupted and retried ({@code BATON_JOB_TIMEOUT}). */
    public B jobTimeout(Duration timeout) {
        return duration(Setting.JOB_TIMEOUT, "jobTimeout", timeout);
    }

    /** How long acknowledged stream history and ledger completions are kept ({@code BATON_RETENTION}). */
    public B retention(Duration maxAge) {
        return duration(Setting.RETENTION, "retention", maxAge);
    }

    /** On close, how long running jobs may finish before they are abandoned to others ({@code BATON_GRACE}). */
    public B grace(Duration grace) {
        return duration(Setting.GRACE, "grace", grace);
    }

    /**
     * How long a cancelled running job's handler may go on after its worker saw the cancel before it is interrupted
     * ({@code BATON_CANCEL_GRACE}).
     */
    public B cancelGrace(Duration grace) {
        return duration(Setting.CANCEL_GRACE, "cancelGrace", grace);
    }

    /**
     * How long a job that no handler of the worker takes waits for a worker that has one before it is dead-lettered
     * NO_HANDLER ({@code BATON_NO_HANDLER_GRACE}).
     */
    public B noHandlerGrace(Duration grace) {
        return duration(Setting.NO_HANDLER_GRACE, "noHandlerGrace", grace);
    }

    /** PostgreSQL connections of Baton's own pool ({@code BATON_POOL_SIZE}); unset, it follows the concurrency. */
    public B poolSize(int connections) {
        return number(Setting.POOL_SIZE, "poolSize", connections);
    }

    /** Jobs committed per ledger transaction, a savepoint each ({@code BATON_BATCH_COMMIT}). */
    public B batchCommit(int jobs) {
        return number(Setting.BATCH_COMMIT, "batchCommit", jobs);
    }

    /** What runs the jobs: platform threads, virtual threads (Java 21+) or auto ({@code BATON_JOB_THREADS}). */
    public B jobThreads(JobThreads threads) {
        return set(Setting.JOB_THREADS, "jobThreads(" + threads + ")", threads);
    }

    /** Whether every worker relays the outbox to Redis ({@code BATON_RELAY}); off leaves it to {@code baton relay}. */
    public B relay(boolean on) {
        return set(Setting.RELAY, "relay(" + on + ")", on);
    }

    /**
     * Whether every Java enqueue goes through the outbox ({@code BATON_ENQUEUE_THROUGH_OUTBOX}): a short transaction
     * of Baton's own per enqueue, published by a relay (docs/RELIABILITY.md#enqueueing-through-the-outbox).
     */
    public B enqueueThroughOutbox(boolean on) {
        return set(Setting.ENQUEUE_THROUGH_OUTBOX, "enqueueThroughOutbox(" + on + ")", on);
    }

    /** The admin HTTP server's {@code host:port} (port 0 picks a free one) or {@code off} ({@code BATON_ADMIN_ADDRESS}). */
    public B adminAddress(String address) {
        return set(Setting.ADMIN_ADDRESS, "adminAddress(" + quoted(address) + ")", address);
    }

    /** The admin user {@code viewer}'s password ({@code BATON_ADMIN_VIEWER_PASSWORD}): turns on the admin login. */
    public B adminViewerPassword(String password) {
        return set(Setting.ADMIN_VIEWER_PASSWORD, "adminViewerPassword(" + Secrets.MASK + ")", password);
    }

    /** The admin user {@code operator}'s password ({@code BATON_ADMIN_OPERATOR_PASSWORD}): turns on the admin login. */
    public B adminOperatorPassword(String password) {
        return set(Setting.ADMIN_OPERATOR_PASSWORD, "adminOperatorPassword(" + Secrets.MASK + ")", password);
    }

    /** {@code base} with every setting given here, each checked by the rule of the environment's setting. */
    protected final BatonConfig applyTo(BatonConfig base) {
        int concurrency = value(Setting.CONCURRENCY, base.concurrency(), ConfigLoader::concurrency);
        int batchCommit = value(Setting.BATCH_COMMIT, base.batchCommit(), ConfigLoader::batchCommit);
        // an unset pool size follows the concurrency and the batches, as BATON_POOL_SIZE=auto does, unless the base
        // chose another
        boolean autoPool = base.poolSize() == ConfigLoader.autoPoolSize(base.concurrency(), base.batchCommit());
        List<String> migrations = new ArrayList<>(base.migrations());
        migrations.addAll(value(Setting.MIGRATIONS, List.<String>of(), ConfigLoader::locations));
        return new BatonConfig(
                value(Setting.REDIS_URI, base.redisUri(), ConfigLoader::redisUri),
                value(Setting.REDIS_CLUSTER_NODES, base.redisClusterNodes(), ConfigLoader::clusterNodes),
                base.jdbcUrl(),
                value(Setting.SCHEMA, base.schema(), ConfigLoader::schema),
                value(Setting.MODE, base.mode(), Function.identity()),
                value(Setting.QUEUES, base.queues(), (List<String> names) -> names.stream().map(QueueName::of)
                        .distinct().toList()),
                value(Setting.LEASE, base.lease(), ConfigLoader::positive),
                value(Setting.IDLE_THRESHOLD, base.idleThreshold(), ConfigLoader::positive),
                value(Setting.DELIVERY_LIMIT, base.deliveryLimit(), ConfigLoader::deliveryLimit),
                retryPolicy(base.retryPolicy()),
                value(Setting.JOB_TIMEOUT, base.jobTimeout(), ConfigLoader::positive),
                value(Setting.RETENTION, base.retention(), ConfigLoader::retention),
                concurrency,
                value(Setting.GRACE, base.grace(), Function.identity()),
                value(Setting.CANCEL_GRACE, base.cancelGrace(), Function.identity()),
                value(Setting.NO_HANDLER_GRACE, base.noHandlerGrace(), Function.identity()),
                value(Setting.POOL_SIZE, autoPool ? ConfigLoader.autoPoolSize(concurrency, batchCommit)
                        : base.poolSize(), ConfigLoader::poolSize),
                batchCommit,
                value(Setting.JOB_THREADS, base.jobThreads(), ConfigLoader::jobThreads),
                value(Setting.ADMIN_ADDRESS, base.adminAddress(), ConfigLoader::adminAddress),
                adminUsers(base.adminUsers()),
                base.plugins(),
                migrations,
                value(Setting.RELAY, base.relay(), Function.identity()),
                value(Setting.ENQUEUE_THROUGH_OUTBOX, base.enqueueThroughOutbox(), Function.identity()));
    }

    private AdminUsers adminUsers(AdminUsers base) {
        AdminUsers users = base;
        if (given.containsKey(Setting.ADMIN_VIEWER_PASSWORD)) {
            users = users.withViewerPassword(given(Setting.ADMIN_VIEWER_PASSWORD));
        }
        if (given.containsKey(Setting.ADMIN_OPERATOR_PASSWORD)) {
            users = users.withOperatorPassword(given(Setting.ADMIN_OPERATOR_PASSWORD));
        }
        return users;
    }

    private RetryPolicy retryPolicy(RetryPolicy base) {
        int attempts = value(Setting.MAX_ATTEMPTS, base.maxAttempts(), ConfigLoader::maxAttempts);
        if (!given.containsKey(Setting.BACKOFF_INITIAL)) {
            return base.withMaxAttempts(attempts);
        }
        Duration initial = given(Setting.BACKOFF_INITIAL);
        Duration max = given(Setting.BACKOFF_MAX);
        return check(Setting.BACKOFF_MAX, () -> ConfigLoader.retryPolicy(attempts, initial, max, "the initial backoff"));
    }

    @SuppressWarnings("unchecked") // each setting's value has the type its call gave it
    private <T> T given(Setting setting) {
        return (T) given.get(setting).value();
    }

    /** {@code fallback} (the base's value) unless the setting was given, then the given value through its rule. */
    private <V, T> T value(Setting setting, T fallback, Function<V, T> rule) {
        if (!given.containsKey(setting)) {
            return fallback;
        }
        V value = given(setting);
        return check(setting, () -> rule.apply(value));
    }

    private <T> T check(Setting setting, Supplier<T> rule) {
        try {
            return rule.get();
        } catch (IllegalArgumentException | BatonException e) {
            Given bad = given.get(setting);
            throw new ConfigException(origin(setting, bad.call(), bad.value()) + ": " + e.getMessage());
        }
    }

    /**
     * Where a value that broke its rule came from, as the caller wrote it: {@code Baton.builder().concurrency(0)}.
     * Settings read from elsewhere (Spring's {@code baton.*} properties) name their own source.
     *
     * @param call  the builder call, {@code concurrency(0)}
     * @param value the value given, as the call took it
     */
    protected String origin(Setting setting, String call, Object value) {
        return owner + "." + call;
    }
}
