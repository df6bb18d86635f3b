package dev.baton.bootstrap.config;

import java.util.Locale;

/**
 * Every setting Baton reads: {@code BATON_<NAME>} in the environment, {@code <name>} in the properties file,
 * {@code --<name>} on the command line. The declaration order is the order of the documentation table.
 */
public enum Setting {
    REDIS_URI("redis://127.0.0.1:6379", true, "Redis endpoint; rediss:// for TLS, redis://:password@host:port for "
            + "auth, redis-sentinel://host:port,host:port#master for Sentinel"),
    REDIS_CLUSTER_NODES("", false, "comma-separated host:port of Redis Cluster nodes (with the REDIS_URI host as "
            + "seeds); empty = a single Redis"),
    JDBC_URL("jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres", true,
            "PostgreSQL JDBC URL of the execution ledger (password=... is masked in all output)"),
    SCHEMA("baton", false, "PostgreSQL schema of the ledger (and of the demo tables)"),
    MODE("exactly-once", false, "exactly-once (PostgreSQL ledger) or at-least-once (no ledger: handlers must be idempotent)"),
    QUEUES("", false, "comma-separated queues that stats, /api/queues and the queue gauges report"),
    LEASE("30s", false, "how long a delivery stays with a worker before others may reclaim it (extended while running)"),
    IDLE_THRESHOLD("1h", false, "consumers silent for longer and owning nothing are removed from the group"),
    DELIVERY_LIMIT("5", false, "deliveries without an outcome (crashes, lost leases) before a job is poison"),
    MAX_ATTEMPTS("5", false, "attempts in all (the first included) before a failing job is dead-lettered"),
    BACKOFF_INITIAL("1s", false, "delay before the first retry; doubles per retry (equal jitter)"),
    BACKOFF_MAX("5m", false, "the longest delay between retries"),
    JOB_TIMEOUT("5m", false, "an attempt running longer is interrupted and retried"),
    RETENTION("1d", false, "how long acknowledged stream history and ledger completions are kept"),
    CONCURRENCY("8", false, "jobs a worker runs at once"),
    GRACE("30s", false, "on shutdown, how long running jobs may finish before they are abandoned to other workers"),
    CANCEL_GRACE("10s", false, "how long a cancelled running job's handler may go on (it sees context.cancelled()) "
            + "before it is interrupted"),
    NO_HANDLER_GRACE("15m", false, "how long a job that no handler of the worker takes (its type's, or its queue's) "
            + "waits for a worker that has one, no attempt spent, before it is dead-lettered NO_HANDLER; 0s = at once"),
    POOL_SIZE("auto", false, "PostgreSQL connections; auto = concurrency + 2 (each running job holds one)"),
    BATCH_COMMIT("1", false, "jobs committed per ledger transaction, a savepoint each (1 = one job per transaction)"),
    JOB_THREADS("auto", false, "what runs the jobs: platform threads, virtual threads (Java 21+), or auto = virtual "
            + "on Java 24+ (no pinning by synchronized) with one transaction per job, platform otherwise"),
    ADMIN_ADDRESS("127.0.0.1:9400", false, "admin HTTP host:port (port 0 picks a free one), or off"),
    ADMIN_VIEWER_PASSWORD(true, "turns on HTTP Basic authentication of the admin server; the password of the user "
            + "viewer, who reads everything and changes nothing (never shown)"),
    ADMIN_OPERATOR_PASSWORD(true, "turns on HTTP Basic authentication of the admin server; the password of the user "
            + "operator, who may also replay, purge, pause and resume (never shown)"),
    PLUGINS("", false, "a folder whose jars are searched for handlers (NamedJobHandler services)"),
    MIGRATIONS("", false, "comma-separated migration locations of your handlers' tables (filesystem:/path or "
            + "classpath:db/x), applied after the ledger's"),
    RELAY("on", false, "every worker relays the outbox (jobs enqueued in PostgreSQL transactions) to Redis: on, or off "
            + "(then run baton relay)"),
    ENQUEUE_THROUGH_OUTBOX("off", false, "every Java enqueue writes the outbox in a short transaction of its own, "
            + "for the relay to publish: on (nothing committed is lost when Redis loses data), or off (straight to "
            + "Redis)");

    private final String defaultValue;
    private final boolean secretBearing;
    private final boolean secret;
    private final String description;

    Setting(String defaultValue, boolean secretBearing, String description) {
        this.defaultValue = defaultValue;
        this.secretBearing = secretBearing;
        this.secret = false;
        this.description = description;
    }

    /** A setting that is a secret as a whole (a password): never shown, whatever its value. */
    Setting(boolean secret, String description) {
        this.defaultValue = "";
        this.secretBearing = true;
        this.secret = secret;
        this.description = description;
    }

    public String envName() {
        return "BATON_" + name();
    }

    /** The flag without dashes, also the key in the properties file: {@code delivery-limit}. */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public String defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** The value as it may be shown: masked when the setting can hold a password, hidden when it is one. */
    public String display(String value) {
        if (secret) {
            return value == null || value.isEmpty() ? "" : Secrets.MASK;
        }
        return secretBearing ? Secrets.mask(value) : value;
    }
}
