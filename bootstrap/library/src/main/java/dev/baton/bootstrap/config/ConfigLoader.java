package dev.baton.bootstrap.config;

import dev.baton.application.service.JobThreads;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.domain.Backoff;
import dev.baton.domain.BatonException;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.Jitter;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import dev.baton.domain.RetryPolicy;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Reads the configuration from, in increasing precedence: defaults, environment ({@code BATON_LEASE}), an optional
 * properties file ({@code lease=30s}), command-line flags ({@code --lease 30s}). Every value is validated here, so
 * a bad one fails at start with its setting, source and (masked) value.
 */
public final class ConfigLoader {
    /** The environment variable naming the properties file, when no {@code --config} flag does. */
    public static final String CONFIG_FILE_ENV = "BATON_CONFIG";

    private final Map<Setting, ConfigValue> values;

    private ConfigLoader(Map<Setting, ConfigValue> values) {
        this.values = values;
    }

    /**
     * @param env   the process environment (unrelated variables are ignored)
     * @param file  the properties file, if any; keys are the flag names without dashes
     * @param flags values given on the command line, keyed by flag name without dashes
     */
    public static BatonConfig load(Map<String, String> env, Optional<Path> file, Map<String, String> flags) {
        Map<Setting, ConfigValue> values = new EnumMap<>(Setting.class);
        for (Setting setting : Setting.values()) {
            values.put(setting, new ConfigValue(setting.defaultValue(), ConfigValue.Source.DEFAULT));
            String fromEnv = env.get(setting.envName());
            if (fromEnv != null) {
                values.put(setting, new ConfigValue(fromEnv, ConfigValue.Source.ENVIRONMENT));
            }
        }
        file.ifPresent(path -> readFile(path).forEach((key, text) -> {
            Setting setting = settingForKey(key, path);
            values.put(setting, new ConfigValue(text, ConfigValue.Source.FILE));
        }));
        flags.forEach((flag, text) -> values.put(settingForKey(flag, null), new ConfigValue(text,
                ConfigValue.Source.FLAG)));
        return new ConfigLoader(values).build();
    }

    private BatonConfig build() {
        Duration backoffInitial = get(Setting.BACKOFF_INITIAL, ConfigLoader::positiveDuration);
        Duration backoffMax = get(Setting.BACKOFF_MAX, ConfigLoader::positiveDuration);
        int maxAttempts = get(Setting.MAX_ATTEMPTS, text -> maxAttempts(wholeNumber(text)));
        RetryPolicy retryPolicy = get(Setting.BACKOFF_MAX, text -> retryPolicy(maxAttempts, backoffInitial,
                backoffMax, Setting.BACKOFF_INITIAL.envName()));
        int concurrency = get(Setting.CONCURRENCY, text -> concurrency(wholeNumber(text)));
        int batchCommit = get(Setting.BATCH_COMMIT, text -> batchCommit(wholeNumber(text)));
        return new BatonConfig(
                get(Setting.REDIS_URI, ConfigLoader::redisUri),
                get(Setting.REDIS_CLUSTER_NODES, ConfigLoader::clusterNodes),
                get(Setting.JDBC_URL, ConfigLoader::jdbcUrl),
                get(Setting.SCHEMA, ConfigLoader::schema),
                get(Setting.MODE, ConfigLoader::mode),
                get(Setting.QUEUES, ConfigLoader::queues),
                get(Setting.LEASE, ConfigLoader::positiveDuration),
                get(Setting.IDLE_THRESHOLD, ConfigLoader::positiveDuration),
                get(Setting.DELIVERY_LIMIT, text -> deliveryLimit(wholeNumber(text))),
                retryPolicy,
                get(Setting.JOB_TIMEOUT, ConfigLoader::positiveDuration),
                get(Setting.RETENTION, text -> retention(Durations.parse(text))),
                concurrency,
                get(Setting.GRACE, ConfigLoader::duration),
                get(Setting.CANCEL_GRACE, ConfigLoader::duration),
                get(Setting.NO_HANDLER_GRACE, ConfigLoader::duration),
                get(Setting.POOL_SIZE, text -> text.equalsIgnoreCase("auto") ? autoPoolSize(concurrency, batchCommit)
                        : poolSize(wholeNumber(text))),
                batchCommit,
                get(Setting.JOB_THREADS, text -> jobThreads(JobThreads.parse(text))),
                get(Setting.ADMIN_ADDRESS, ConfigLoader::adminAddress),
                AdminUsers.of(values.get(Setting.ADMIN_VIEWER_PASSWORD).text(),
                        values.get(Setting.ADMIN_OPERATOR_PASSWORD).text()),
                get(Setting.PLUGINS, text -> text.isBlank() ? Optional.empty() : Optional.of(Path.of(text))),
                get(Setting.MIGRATIONS, text -> locations(list(text))),
                get(Setting.RELAY, ConfigLoader::onOff),
                get(Setting.ENQUEUE_THROUGH_OUTBOX, ConfigLoader::onOff));
    }

    private <T> T get(Setting setting, Function<String, T> parser) {
        ConfigValue value = values.get(setting);
        try {
            return parser.apply(value.text().trim());
        } catch (IllegalArgumentException | BatonException e) {
            throw ConfigException.invalid(setting, value, e.getMessage());
        }
    }

    private static Setting settingForKey(String key, Path file) {
        String normalized = key.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(Setting.values())
                .filter(s -> s.flagName().equals(normalized) || s.envName().equalsIgnoreCase(normalized))
                .findFirst()
                .orElseThrow(() -> new ConfigException("unknown setting '" + key + "'"
                        + (file == null ? "" : " in " + file) + "; known settings: "
                        + String.join(", ", Arrays.stream(Setting.values()).map(Setting::flagName).toList())));
    }

    private static Map<String, String> readFile(Path path) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ConfigException("cannot read the properties file " + path + ": " + e.getMessage());
        }
        Map<String, String> entries = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> entries.put(name, properties.getProperty(name)));
        return entries;
    }

    static Duration duration(String text) {
        return Durations.parse(text);
    }

    static Duration positiveDuration(String text) {
        return positive(Durations.parse(text));
    }

    /*
     * The rules below check typed values: the text of the environment, the file and the flags is parsed first, a
     * value given in code (CodeSettings) is checked as it is. One rule per setting, whatever the source.
     */

    static Duration positive(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("must be positive");
        }
        return duration;
    }

    static int concurrency(int value) {
        return intIn(value, 1, 10_000);
    }

    static int maxAttempts(int value) {
        return intIn(value, 1, 1000);
    }

    static DeliveryLimit deliveryLimit(int value) {
        return new DeliveryLimit(intIn(value, 1, 1000));
    }

    static int poolSize(int value) {
        return intIn(value, 1, 1000);
    }

    /**
     * One connection per transaction the worker runs at once, one for lookups and one for the relay; never more than
     * a pool may have ({@link #poolSize}).
     */
    public static int autoPoolSize(int concurrency, int batchCommit) {
        return Math.min(1000, WorkerSettings.transactionsAtOnce(concurrency, batchCommit) + 2);
    }

    static int batchCommit(int value) {
        return intIn(value, 1, 1000);
    }

    static Retention retention(Duration maxAge) {
        return new Retention(positive(maxAge));
    }

    static RetryPolicy retryPolicy(int maxAttempts, Duration initial, Duration max, String initialName) {
        if (positive(max).compareTo(positive(initial)) < 0) {
            throw new IllegalArgumentException("must not be below " + initialName + " (" + Durations.format(initial)
                    + ")");
        }
        return new RetryPolicy(maxAttempts(maxAttempts), new Backoff.Exponential(initial, 2.0, max), Jitter.EQUAL,
                Set.of());
    }

    static int intIn(String text, int min, int max) {
        return intIn(wholeNumber(text), min, max);
    }

    private static int wholeNumber(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number");
        }
    }

    private static int intIn(int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("must be in " + min + ".." + max);
        }
        return value;
    }

    static String redisUri(String text) {
        if (!text.matches("(?i)rediss?(-sentinel)?://.+")) {
            throw new IllegalArgumentException("expected redis://[user:password@]host:port[/db], rediss://... for TLS, "
                    + "or redis-sentinel://[user:password@]host:port[,host:port...]#masterName");
        }
        return text;
    }

    /** {@code host:port,host:port}; IPv6 hosts in brackets ({@code [::1]:7000}). */
    static List<String> clusterNodes(String text) {
        List<String> nodes = Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String node : nodes) {
            int colon = node.lastIndexOf(':');
            String host = colon < 0 ? "" : node.substring(0, colon);
            boolean bracketed = host.startsWith("[") && host.endsWith("]");
            if (host.isEmpty() || (!bracketed && host.contains(":")) || host.matches(".*[\\s/@].*")) {
                throw new IllegalArgumentException("expected comma-separated host:port, got '" + node + "'");
            }
            try {
                intIn(node.substring(colon + 1), 1, 65_535);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the port of '" + node + "' " + e.getMessage());
            }
        }
        return nodes;
    }

    static String jdbcUrl(String text) {
        if (!text.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("expected jdbc:postgresql://host:port/database?user=...");
        }
        return text;
    }

    static String schema(String text) {
        if (!text.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("expected a lower-case SQL identifier (letters, digits, _)");
        }
        return text;
    }

    /** Checked against the running JVM now, so that {@code virtual} on Java 17 fails at start-up, not at the first job. */
    static JobThreads jobThreads(JobThreads threads) {
        threads.resolve(1); // refused or not, whatever the batch size
        return threads;
    }

    private static boolean onOff(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("use on or off");
        };
    }

    private static Mode mode(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "exactly-once" -> Mode.EXACTLY_ONCE;
            case "at-least-once" -> Mode.AT_LEAST_ONCE;
            default -> throw new IllegalArgumentException("expected exactly-once or at-least-once");
        };
    }

    private static List<QueueName> queues(String text) {
        return list(text).stream().map(QueueName::of).distinct().toList();
    }

    private static List<String> list(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    static List<String> locations(List<String> locations) {
        for (String location : locations) {
            if (!location.startsWith("classpath:") && !location.startsWith("filesystem:")) {
                throw new IllegalArgumentException("expected migration locations like filesystem:/opt/app/sql or "
                        + "classpath:db/shop");
            }
        }
        return locations;
    }

    static Optional<AdminAddress> adminAddress(String text) {
        if (text.equalsIgnoreCase("off")) {
            return Optional.empty();
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port (port 0 picks a free one) or off");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return Optional.of(new AdminAddress(host, intIn(text.substring(colon + 1), 0, 65_535)));
    }
}
