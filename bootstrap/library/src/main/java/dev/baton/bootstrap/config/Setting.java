package dev.baton.bootstrap.config;

import dev.baton.application.service.JobThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One setting of Baton's, declared once: its name, value type, default, rule and one-line doc. Everything else
 * derives from the declaration: {@code BATON_<NAME>} in the environment, {@code <name>} in the properties file,
 * {@code --<name>} on the command line, {@code set(NAME, value)} on the builder, {@code baton.<name>} in Spring, the
 * IDE metadata and the configuration table of docs/OPERATIONS.md. {@link #all()} lists them in the table's order.
 * Rules across settings (the backoff's bounds, the automatic pool size) are {@link BatonConfig}'s.
 *
 * @param <T> the value's type, as code gives it
 */
public final class Setting<T> {
    private static final List<Setting<?>> ALL = new ArrayList<>();

    public static final Setting<String> REDIS_URI = text("REDIS_URI", "redis://127.0.0.1:6379",
            SettingRules::redisUri, Secrecy.IN_TEXT,
            "Redis endpoint; `rediss://` for TLS, `redis://:password@host:port` (or `user:password@`) for auth; "
            + "`redis-sentinel://host:port,host:port,…#masterName` (`rediss-sentinel://` for TLS) for Redis behind "
            + "Sentinel, see [Redis Sentinel](#redis-sentinel)");
    public static final Setting<List<String>> REDIS_CLUSTER_NODES = list("REDIS_CLUSTER_NODES",
            SettingRules::clusterNodes,
            "comma-separated `host:port` of Redis Cluster nodes (`[::1]:7000` for IPv6); with the "
            + "`BATON_REDIS_URI` host they seed a cluster client (password and TLS from the URI). Empty: a single "
            + "Redis. See [SCALING.md](SCALING.md)");
    public static final Setting<String> NAMESPACE = text("NAMESPACE", "baton", SettingRules::namespace, Secrecy.NONE,
            "the prefix of every Redis key of Baton's (`<namespace>:{orders}:stream`): services sharing a Redis "
            + "under different namespaces never see each other's queues, jobs, pauses or schedules. 1..64 letters, "
            + "digits, `.`, `_` or `-`, starting with a letter or digit. The default is the layout of every release"
            + " before namespaces. See [Redis namespaces](#redis-namespaces)");
    public static final Setting<String> JDBC_URL = text("JDBC_URL",
            "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres", SettingRules::jdbcUrl,
            Secrecy.IN_TEXT,
            "PostgreSQL JDBC URL of the execution ledger; pass the password as `&password=…` (not "
            + "`user:pw@host`); embedded, `dataSource(ds)` replaces it with the application's pool");
    public static final Setting<String> SCHEMA = text("SCHEMA", "baton", SettingRules::schema, Secrecy.NONE,
            "PostgreSQL schema of the ledger (and of the demo and your migrated tables)");
    public static final Setting<Mode> MODE = new Setting<>("MODE", Type.MODE, "exactly-once", mode -> mode,
            Secrecy.NONE,
            "`exactly-once` (PostgreSQL ledger) or `at-least-once` (no ledger, PostgreSQL never opened: handlers "
            + "must be idempotent)");
    public static final Setting<List<String>> QUEUES = list("QUEUES", SettingRules::queues,
            "comma-separated queues that `baton stats`, `/api/queues` and the queue gauges report (a worker adds "
            + "its own)");
    public static final Setting<Duration> LEASE = duration("LEASE", "30s", SettingRules::positive,
            "how long a delivery stays with a silent worker before others reclaim it; leases of running jobs are "
            + "extended");
    public static final Setting<Duration> IDLE_THRESHOLD = duration("IDLE_THRESHOLD", "1h", SettingRules::positive,
            "consumers silent for longer and owning nothing are removed from the group");
    public static final Setting<Integer> DELIVERY_LIMIT = number("DELIVERY_LIMIT", "5", 1, 1000,
            "isolated deliveries without an outcome (a suspect that ran alone in its worker and died with it, or "
            + "lost its lease) before a job is dead-lettered as `POISON`");
    public static final Setting<Integer> MAX_ATTEMPTS = number("MAX_ATTEMPTS", "5", 1, 1000,
            "attempts in all (the first included) before a failing job is dead-lettered as `EXHAUSTED`");
    public static final Setting<Duration> BACKOFF_INITIAL = duration("BACKOFF_INITIAL", "1s", SettingRules::positive,
            "delay before the first retry; doubles per retry, with equal jitter");
    public static final Setting<Duration> BACKOFF_MAX = duration("BACKOFF_MAX", "5m", SettingRules::positive,
            "the longest delay between retries (must be ≥ the initial one)");
    public static final Setting<Duration> JOB_TIMEOUT = duration("JOB_TIMEOUT", "5m", SettingRules::positive,
            "an attempt running longer is interrupted and counts as a retryable failure; also every PostgreSQL "
            + "connection's `statement_timeout` and `idle_in_transaction_session_timeout`");
    public static final Setting<Duration> RETENTION = duration("RETENTION", "1d", SettingRules::positive,
            "how long acknowledged stream history and ledger completions are kept");
    public static final Setting<Integer> CONCURRENCY = number("CONCURRENCY", "8", 1, 10_000,
            "jobs a worker runs at once (1..10000)");
    public static final Setting<String> CONSUMER = text("CONSUMER", "", SettingRules::consumer, Secrecy.NONE,
            "the workers' consumer name; empty: the pod's name in Kubernetes (`HOSTNAME`), else the host name. A "
            + "worker under a name a live worker holds runs as `<name>-2`, `<name>-3`, … See [Consumer "
            + "names](#consumer-names)");
    public static final Setting<Duration> GRACE = duration("GRACE", "30s", grace -> grace,
            "on SIGTERM/Ctrl-C, how long running jobs may finish before they are abandoned to other workers");
    public static final Setting<Duration> CANCEL_GRACE = duration("CANCEL_GRACE", "10s", grace -> grace,
            "how long a cancelled running job's handler may go on after its worker saw the cancel "
            + "(`context.cancelled()` is true) before it is interrupted; see [Cancelling a job](#cancelling-a-job)");
    public static final Setting<Duration> NO_HANDLER_GRACE = duration("NO_HANDLER_GRACE", "15m", grace -> grace,
            "how long a job that no handler of the worker takes (its type has none there; untyped, its queue has "
            + "none) waits for a worker that has one, leased again after 1 s growing to 1 min, no attempt spent, "
            + "before it is dead-lettered as `NO_HANDLER`; counted from the first worker that found no handler for "
            + "it; `0s` dead-letters it at once. See [Jobs no worker has a handler "
            + "for](HANDLERS.md#jobs-no-worker-has-a-handler-for)");
    public static final Setting<Optional<Integer>> POOL_SIZE = new Setting<>("POOL_SIZE", Type.NUMBER_OR_AUTO,
            "auto", size -> size.map(n -> SettingRules.intIn(n, 1, 1000)),
            Secrecy.NONE,
            "PostgreSQL connections; `auto` = one per transaction the worker runs at once, plus 2 (lookups, the "
            + "relay): concurrency + 2 when jobs commit one by one, batched the transactions at once (below) + 2. A"
            + " warning at start names `max_connections` when PostgreSQL would never accept that many from this "
            + "user");
    public static final Setting<Integer> BATCH_COMMIT = number("BATCH_COMMIT", "1", 1, 1000,
            "up to this many ready jobs run one after another and commit in one PostgreSQL transaction (first "
            + "deliveries with one insert of all completions at the commit; when a job fails there, or with a "
            + "redelivery in the batch, a savepoint each: one job's failure rolls back only itself; acks after the "
            + "commit); 1..1000. A batch is the jobs ready when a transaction starts, never waited for; batches "
            + "commit side by side, ⌈concurrency / batch⌉ of them and at least 4 (unless the concurrency is lower),"
            + " each on a connection of its own and each taking at most its share of the concurrency (concurrency "
            + "64 with batches of 64: four transactions of up to 16). For short handlers only: a batch's handlers "
            + "run one after the other on one thread ([Batched commits](BENCHMARKS.md#batched-commits))");
    public static final Setting<JobThreads> JOB_THREADS = new Setting<>("JOB_THREADS", Type.JOB_THREADS, "auto",
            SettingRules::jobThreads, Secrecy.NONE,
            "what runs the jobs: `platform` (a fixed pool of OS threads, one per unit of concurrency), `virtual` "
            + "(a virtual thread per job or batch; Java 21+, refused at start on older runtimes), or `auto` = "
            + "virtual on Java 24+ (where `synchronized` no longer pins a virtual thread) when jobs commit one by "
            + "one, platform threads for batches (`BATON_BATCH_COMMIT` > 1, measured faster) and before Java 24. "
            + "The worker logs `threads=` at start. See [Job threads](HANDLERS.md#job-threads)");
    public static final Setting<String> ADMIN_ADDRESS = text("ADMIN_ADDRESS", "127.0.0.1:9400",
            SettingRules::adminAddress, Secrecy.NONE,
            "admin HTTP `host:port` (port `0` picks a free one), or `off`");
    public static final Setting<String> ADMIN_VIEWER_PASSWORD = text("ADMIN_VIEWER_PASSWORD", "",
            password -> password, Secrecy.WHOLE,
            "turns on HTTP Basic authentication of the admin server; the password of the user `viewer`, who reads"
            + " everything and changes nothing. Never shown (`****`). See [Security](#security-of-the-admin-server)");
    public static final Setting<String> ADMIN_OPERATOR_PASSWORD = text("ADMIN_OPERATOR_PASSWORD", "",
            password -> password, Secrecy.WHOLE,
            "turns on HTTP Basic authentication of the admin server; the password of the user `operator`, who may"
            + " also replay, purge, pause and resume. Never shown (`****`)");
    public static final Setting<String> ADMIN_PUBLIC_ORIGIN = text("ADMIN_PUBLIC_ORIGIN", "",
            SettingRules::publicOrigin, Secrecy.NONE,
            "the origin the admin server is reached at through a reverse proxy (`https://baton.example.com`): its host"
            + " is served besides loopback names, IP addresses and the `BATON_ADMIN_ADDRESS` host, and changes may come"
            + " from its pages whatever `Host` the proxy passes on. See [Security](#security-of-the-admin-server)");
    public static final Setting<Duration> AUDIT_RETENTION = duration("AUDIT_RETENTION", "90d", SettingRules::positive,
            "how long the audit trail of admin changes is kept in PostgreSQL; running workers delete older entries. "
            + "See [The audit trail](#the-audit-trail)");
    public static final Setting<String> PLUGINS = text("PLUGINS", "", folder -> folder, Secrecy.NONE,
            "a folder whose `*.jar` files are searched for handlers (`NamedJobHandler` services) (the `baton` "
            + "command; embedded, `handlerClassLoader(loader)`)");
    public static final Setting<List<String>> MIGRATIONS = list("MIGRATIONS", SettingRules::locations,
            "comma-separated migration locations of your handlers' tables (`filesystem:/opt/shop/sql`, "
            + "`classpath:db/shop`), applied after the ledger's ([POSTGRES.md](POSTGRES.md#migrations))");
    public static final Setting<Boolean> RELAY = onOff("RELAY", "on",
            "every worker relays the outbox (jobs enqueued in PostgreSQL transactions, "
            + "[HANDLERS.md](HANDLERS.md#enqueueing-in-your-transaction)) to Redis; `off` leaves it to `baton "
            + "relay` (exactly-once mode only)");
    public static final Setting<Boolean> ENQUEUE_THROUGH_OUTBOX = onOff("ENQUEUE_THROUGH_OUTBOX", "off",
            "`on`: every Java enqueue (`baton.enqueue`, `enqueueAll`) writes the outbox in a short PostgreSQL "
            + "transaction of Baton's own, and the instance relays it (unless `BATON_RELAY=off`): nothing committed"
            + " is lost when Redis loses data, for one PostgreSQL write per call. "
            + "`EnqueueRoute.DIRECT`/`EnqueueRoute.OUTBOX` "
            + "choose per enqueue; unique jobs cannot go through the outbox and are refused there "
            + "([RELIABILITY.md](RELIABILITY.md#enqueueing-through-the-outbox)); exactly-once mode only");
    public static final Setting<Boolean> REQUIRE_SERVERS_AT_START = onOff("REQUIRE_SERVERS_AT_START", "off",
            "`on`: opening Redis or PostgreSQL fails when the server does not answer (or the migrations fail), "
            + "and so does whatever opened it. `off`: Baton opens anyway and connects in the background; see [While"
            + " a server is down](#while-a-server-is-down). The `baton` command defaults to `on`");


    private final String name;
    private final Type<T> type;
    private final String defaultText;
    private final UnaryOperator<T> rule;
    private final Secrecy secrecy;
    private final String doc;

    private Setting(String name, Type<T> type, String defaultText, UnaryOperator<T> rule, Secrecy secrecy,
                    String doc) {
        this.name = name;
        this.type = type;
        this.defaultText = defaultText;
        this.rule = rule;
        this.secrecy = secrecy;
        this.doc = doc;
        ALL.add(this);
    }

    private static Setting<String> text(String name, String defaultText, UnaryOperator<String> rule, Secrecy secrecy,
                                        String doc) {
        return new Setting<>(name, Type.TEXT, defaultText, rule, secrecy, doc);
    }

    private static Setting<List<String>> list(String name, UnaryOperator<List<String>> rule, String doc) {
        return new Setting<>(name, Type.LIST, "", rule, Secrecy.NONE, doc);
    }

    private static Setting<Duration> duration(String name, String defaultText, UnaryOperator<Duration> rule,
                                              String doc) {
        return new Setting<>(name, Type.DURATION, defaultText, rule, Secrecy.NONE, doc);
    }

    private static Setting<Integer> number(String name, String defaultText, int min, int max, String doc) {
        return new Setting<>(name, Type.NUMBER, defaultText, n -> SettingRules.intIn(n, min, max), Secrecy.NONE, doc);
    }

    private static Setting<Boolean> onOff(String name, String defaultText, String doc) {
        return new Setting<>(name, Type.ON_OFF, defaultText, on -> on, Secrecy.NONE, doc);
    }

    /** Every setting, in the order of the configuration table. */
    public static List<Setting<?>> all() {
        return List.copyOf(ALL);
    }

    /** The setting of a flag name ({@code delivery-limit}) or environment name ({@code BATON_DELIVERY_LIMIT}). */
    public static Optional<Setting<?>> named(String key) {
        String normalized = key.trim().toLowerCase(Locale.ROOT);
        return ALL.stream().filter(s -> s.flagName().equals(normalized) || s.envName().equalsIgnoreCase(normalized))
                .findFirst();
    }

    /** The constant's name: {@code DELIVERY_LIMIT}. */
    public String name() {
        return name;
    }

    public String envName() {
        return "BATON_" + name;
    }

    /** The flag without dashes, also the key in the properties file and Spring's property: {@code delivery-limit}. */
    public String flagName() {
        return name.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public Type<T> type() {
        return type;
    }

    /** The default as the environment writes it; empty for none. */
    public String defaultText() {
        return defaultText;
    }

    /** The one-line doc as the configuration table shows it (Markdown). */
    public String doc() {
        return doc;
    }

    /** The one-line doc as plain text, for a terminal or an IDE: links and code marks removed. */
    public String description() {
        return doc.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1").replace("`", "");
    }

    /**
     * A value read from text (the environment, a file, a flag, a property), checked by the setting's rule.
     *
     * @throws IllegalArgumentException or a {@code BatonException}, saying what is wrong
     */
    public T read(String text) {
        return rule.apply(type.parse().apply(text.trim()));
    }

    /**
     * A value given in code, or its text when that is how it came, checked by the setting's rule.
     *
     * @throws IllegalArgumentException or a {@code BatonException}, saying what is wrong
     */
    T accept(Object given) {
        if (given instanceof String text && type != Type.TEXT) {
            return read(text);
        }
        return rule.apply(type.cast(given));
    }

    /** The text of a value, or of a value's text, as the environment would write it. */
    public String text(Object given) {
        return given instanceof String text ? text : type.format().apply(type.cast(given));
    }

    /** The text as it may be shown: masked when the setting can hold a password, hidden when it is one. */
    public String display(String text) {
        return switch (secrecy) {
            case NONE -> text;
            case IN_TEXT -> Secrets.mask(text);
            case WHOLE -> text == null || text.isEmpty() ? "" : Secrets.MASK;
        };
    }

    /** The passwords inside a value of this setting, for redaction. */
    List<String> secrets(Object value) {
        String text = text(value);
        return switch (secrecy) {
            case NONE -> List.of();
            case IN_TEXT -> Secrets.find(text);
            case WHOLE -> text.isEmpty() ? List.of() : List.of(text);
        };
    }

    @Override
    public String toString() {
        return name;
    }

    /** Whether and how a setting's value holds a password. */
    enum Secrecy {
        NONE,
        /** Its text may carry one ({@code redis://:pw@host}, {@code password=}): that part is masked. */
        IN_TEXT,
        /** It is one: never shown. */
        WHOLE
    }

    /**
     * A setting's value type: how its text reads and writes, and the type a binder like Spring's should produce
     * before the setting reads it ({@code String} for a type only Baton reads).
     *
     * @param javaName how code writes the type
     */
    public record Type<T>(String javaName, Class<?> bindAs, Function<String, T> parse, Function<T, String> format) {
        public static final Type<String> TEXT = new Type<>("String", String.class, text -> text, text -> text);
        public static final Type<List<String>> LIST = new Type<>("List<String>", List.class, SettingRules::list,
                list -> String.join(",", list));
        public static final Type<Integer> NUMBER = new Type<>("Integer", String.class, SettingRules::wholeNumber,
                String::valueOf);
        public static final Type<Optional<Integer>> NUMBER_OR_AUTO = new Type<>("Optional<Integer>", String.class,
                text -> text.equalsIgnoreCase("auto") ? Optional.empty()
                        : Optional.of(SettingRules.wholeNumber(text)), n -> n.map(String::valueOf).orElse("auto"));
        public static final Type<Duration> DURATION = new Type<>("Duration", Duration.class, Durations::parse,
                Durations::format);
        public static final Type<Boolean> ON_OFF = new Type<>("Boolean", Boolean.class, SettingRules::onOff,
                on -> on ? "on" : "off");
        public static final Type<Mode> MODE = new Type<>("Mode", String.class, Mode::parse, Mode::label);
        public static final Type<JobThreads> JOB_THREADS = new Type<>("JobThreads", String.class, JobThreads::parse,
                JobThreads::label);

        public Type {
            Objects.requireNonNull(javaName, "java name");
        }

        @SuppressWarnings("unchecked") // a setting's values are of its type: the builder's set() sees to it
        T cast(Object value) {
            return (T) Objects.requireNonNull(value, "value");
        }
    }
}
