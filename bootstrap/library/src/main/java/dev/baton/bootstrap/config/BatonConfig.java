package dev.baton.bootstrap.config;

import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.domain.Backoff;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Jitter;
import dev.baton.domain.QueueName;
import dev.baton.domain.RetryPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Baton's validated configuration: a value for every {@link Setting}, each checked by its setting's rule, and the
 * rules across settings checked here. Built by {@link ConfigLoader} and the builders ({@link CodeSettings});
 * {@link #describe()}, {@link #redact} and {@link #toString()} never show a password.
 */
public final class BatonConfig {
    private static final int MAX_POOL_SIZE = 1000;
    private final Map<Setting<?>, Object> values;

    private BatonConfig(Map<Setting<?>, Object> values) {
        this.values = Map.copyOf(values);
    }

    /**
     * A configuration of values each already checked by its setting's rule, once the rules across settings pass.
     *
     * @throws ConfigException naming, as {@code origin} spells it, a value that breaks a rule across settings
     */
    static BatonConfig checked(Map<Setting<?>, Object> values, Origin origin) {
        BatonConfig config = new BatonConfig(values);
        Duration initial = config.get(Setting.BACKOFF_INITIAL);
        Duration max = config.get(Setting.BACKOFF_MAX);
        if (max.compareTo(initial) < 0) {
            // blame the bound this source gave: the other one came from below and passed there
            throw origin.gave(Setting.BACKOFF_MAX) || !origin.gave(Setting.BACKOFF_INITIAL)
                    ? origin.invalid(Setting.BACKOFF_MAX, "must not be below " + origin.name(Setting.BACKOFF_INITIAL)
                            + " (" + Durations.format(initial) + ")")
                    : origin.invalid(Setting.BACKOFF_INITIAL, "must not be above " + origin.name(Setting.BACKOFF_MAX)
                            + " (" + Durations.format(max) + ")");
        }
        return config;
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

    /** The setting's value. */
    public <T> T get(Setting<T> setting) {
        return setting.type().cast(values.get(setting));
    }

    /**
     * This configuration with one value changed, checked as the builder checks it.
     *
     * @throws ConfigException naming {@code BatonConfig.with(...)} when the value breaks a rule
     */
    public <T> BatonConfig with(Setting<T> setting, T value) {
        return new CodeSettings.With().set(setting, value).over(this);
    }

    Map<Setting<?>, Object> values() {
        return new HashMap<>(values);
    }

    /** Attempts, backoff and jitter of a failing job, from {@code MAX_ATTEMPTS} and the backoff's bounds. */
    public RetryPolicy retryPolicy() {
        return new RetryPolicy(get(Setting.MAX_ATTEMPTS), new Backoff.Exponential(get(Setting.BACKOFF_INITIAL), 2.0,
                get(Setting.BACKOFF_MAX)), Jitter.EQUAL, Set.of());
    }

    /** {@code POOL_SIZE}, or for {@code auto} one connection per transaction the worker runs at once, plus two. */
    public int poolSize() {
        return get(Setting.POOL_SIZE).orElseGet(() -> autoPoolSize(get(Setting.CONCURRENCY),
                get(Setting.BATCH_COMMIT)));
    }

    /** One connection per transaction the worker runs at once, one for lookups and one for the relay. */
    public static int autoPoolSize(int concurrency, int batchCommit) {
        return Math.min(MAX_POOL_SIZE, WorkerSettings.transactionsAtOnce(concurrency, batchCommit) + 2);
    }

    public AdminUsers adminUsers() {
        return AdminUsers.of(get(Setting.ADMIN_VIEWER_PASSWORD), get(Setting.ADMIN_OPERATOR_PASSWORD));
    }

    /** The origin a reverse proxy serves the admin server at ({@code https://baton.example.com}), if any. */
    public Optional<String> adminPublicOrigin() {
        return Optional.of(get(Setting.ADMIN_PUBLIC_ORIGIN)).filter(origin -> !origin.isEmpty());
    }

    /** Empty when the admin server is {@code off}. */
    public Optional<AdminAddress> adminAddress() {
        return SettingRules.adminAddressOf(get(Setting.ADMIN_ADDRESS));
    }

    /** Empty for the default name, the pod's or the host's. */
    public Optional<ConsumerName> consumer() {
        return Optional.of(get(Setting.CONSUMER)).filter(name -> !name.isEmpty()).map(ConsumerName::of);
    }

    public List<QueueName> queues() {
        return get(Setting.QUEUES).stream().map(QueueName::of).toList();
    }

    /** Never shows a password. */
    @Override
    public String toString() {
        return "BatonConfig" + describe();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BatonConfig config && config.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    /** Replaces every password of the endpoints and admin users in {@code text} (an exception message, say). */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String redacted = Secrets.mask(text);
        List<String> secrets = new ArrayList<>();
        Setting.all().forEach(setting -> secrets.addAll(setting.secrets(values.get(setting))));
        for (String secret : secrets) {
            redacted = redacted.replace(secret, Secrets.MASK);
        }
        return redacted;
    }

    /** Every setting's value keyed by its flag name, passwords masked (start-up log, {@code baton config}). */
    public Map<String, String> describe() {
        Map<String, String> shown = new LinkedHashMap<>();
        Setting.all().forEach(setting -> shown.put(setting.flagName(),
                setting.display(setting.text(values.get(setting)))));
        return shown;
    }
}
