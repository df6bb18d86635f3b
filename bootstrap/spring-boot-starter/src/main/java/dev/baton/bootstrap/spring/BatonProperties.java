package dev.baton.bootstrap.spring;

import dev.baton.application.service.JobThreads;
import dev.baton.bootstrap.config.Mode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Baton's settings in a Spring Boot application ({@code application.yml}): the environment's settings under their
 * flag names ({@code BATON_CONCURRENCY} is {@code baton.concurrency}, which Spring also reads from that variable),
 * plus {@code baton.jdbc-url} for an application without a {@code DataSource} and {@code baton.worker.*}. Unset, a
 * setting keeps Baton's default; every value is checked by the environment's rule when the context starts.
 */
@ConfigurationProperties("baton")
public class BatonProperties {
    /** Redis endpoint; rediss:// for TLS, redis://:password@host:port for auth, redis-sentinel://h:p,h:p#master. */
    private String redisUri;
    /** Redis Cluster nodes (host:port), seeding a cluster client with the Redis URI's host. */
    private List<String> redisClusterNodes = new ArrayList<>();
    /** PostgreSQL JDBC URL of the ledger, used only when the application has no DataSource bean. */
    private String jdbcUrl;
    /** PostgreSQL schema of the ledger's tables and of Baton's migration history (default baton). */
    private String schema;
    /** exactly-once (PostgreSQL ledger, the default) or at-least-once (no ledger: handlers must be idempotent). */
    private Mode mode;
    /** Migration locations of the handlers' own tables, applied in Baton's schema after the ledger's migrations. */
    private List<String> migrations = new ArrayList<>();
    /** Queues that Baton's queue gauges report (the workers' queues are added to them). */
    private List<String> queues = new ArrayList<>();
    /** Jobs a worker runs at once (default 8). */
    private Integer concurrency;
    /** Attempts in all, the first included, before a failing job is dead-lettered (default 5). */
    private Integer maxAttempts;
    /** Delay before the first retry; doubles per retry up to backoff-max (default 1s). */
    private Duration backoffInitial;
    /** The longest delay between retries (default 5m). */
    private Duration backoffMax;
    /** How long a delivery stays with a worker before others may reclaim it (default 30s). */
    private Duration lease;
    /** Consumers silent for longer and owning nothing leave the group (default 1h). */
    private Duration idleThreshold;
    /** Deliveries without an outcome (crashes, lost leases) before a job is poison (default 5). */
    private Integer deliveryLimit;
    /** An attempt running longer is interrupted and retried (default 5m). */
    private Duration jobTimeout;
    /** How long acknowledged stream history and ledger completions are kept (default 1d). */
    private Duration retention;
    /** On shutdown, how long running jobs may finish before they are abandoned to other workers (default 30s). */
    private Duration grace;
    /** How long a cancelled running job's handler may go on before it is interrupted (default 10s). */
    private Duration cancelGrace;
    /**
     * How long a job that no handler of the worker takes waits for a worker that has one before it is dead-lettered
     * NO_HANDLER (default 15m).
     */
    private Duration noHandlerGrace;
    /** Connections of Baton's own pool, used only with baton.jdbc-url (default concurrency + 2). */
    private Integer poolSize;
    /** Jobs committed per ledger transaction, a savepoint each (default 1). */
    private Integer batchCommit;
    /** What runs the jobs: platform, virtual (Java 21+) or auto. */
    private JobThreads jobThreads;
    /** Every Java enqueue writes the outbox in a short transaction of Baton's own, for the relay to publish. */
    private Boolean enqueueThroughOutbox;
    /**
     * Periodic jobs, one per element in a schedules file's format: "name | schedule | queue | payload", fired while
     * the context runs a worker.
     */
    private List<String> schedules = new ArrayList<>();
    /** A schedules file (one "name | schedule | queue | payload" per line), fired while the context runs a worker. */
    private String schedulesFile;
    @NestedConfigurationProperty
    private final Worker worker = new Worker();

    /** {@code baton.worker.*}: the worker this application runs, if any. */
    public static class Worker {
        /** Whether the context runs a worker on baton.worker.queues; false for producer-only services. */
        private boolean enabled = true;
        /** The queues the worker consumes, with baton.concurrency jobs at once. */
        private List<String> queues = new ArrayList<>();
        /**
         * The handler that runs the queues' untyped jobs; unset, each queue's handler bean is named like the queue.
         * A typed job always runs under the handler of its type.
         */
        private String handler;

        public String getHandler() {
            return handler;
        }

        public void setHandler(String handler) {
            this.handler = handler;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public List<String> getQueues() {
            return queues;
        }

        public void setQueues(List<String> queues) {
            this.queues = queues;
        }
    }

    public Worker getWorker() {
        return worker;
    }

    public List<String> getSchedules() {
        return schedules;
    }

    public void setSchedules(List<String> schedules) {
        this.schedules = schedules;
    }

    public String getSchedulesFile() {
        return schedulesFile;
    }

    public void setSchedulesFile(String schedulesFile) {
        this.schedulesFile = schedulesFile;
    }

    public String getRedisUri() {
        return redisUri;
    }

    public void setRedisUri(String redisUri) {
        this.redisUri = redisUri;
    }

    public List<String> getRedisClusterNodes() {
        return redisClusterNodes;
    }

    public void setRedisClusterNodes(List<String> redisClusterNodes) {
        this.redisClusterNodes = redisClusterNodes;
    }

    public String getJdbcUrl() {
        return jdbcUrl;
    }

    public void setJdbcUrl(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
    }

    public String getSchema() {
        return schema;
    }

    public void setSchema(String schema) {
        this.schema = schema;
    }

    public Mode getMode() {
        return mode;
    }

    public void setMode(Mode mode) {
        this.mode = mode;
    }

    public List<String> getMigrations() {
        return migrations;
    }

    public void setMigrations(List<String> migrations) {
        this.migrations = migrations;
    }

    public List<String> getQueues() {
        return queues;
    }

    public void setQueues(List<String> queues) {
        this.queues = queues;
    }

    public Integer getConcurrency() {
        return concurrency;
    }

    public void setConcurrency(Integer concurrency) {
        this.concurrency = concurrency;
    }

    public Integer getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Duration getBackoffInitial() {
        return backoffInitial;
    }

    public void setBackoffInitial(Duration backoffInitial) {
        this.backoffInitial = backoffInitial;
    }

    public Duration getBackoffMax() {
        return backoffMax;
    }

    public void setBackoffMax(Duration backoffMax) {
        this.backoffMax = backoffMax;
    }

    public Duration getLease() {
        return lease;
    }

    public void setLease(Duration lease) {
        this.lease = lease;
    }

    public Duration getIdleThreshold() {
        return idleThreshold;
    }

    public void setIdleThreshold(Duration idleThreshold) {
        this.idleThreshold = idleThreshold;
    }

    public Integer getDeliveryLimit() {
        return deliveryLimit;
    }

    public void setDeliveryLimit(Integer deliveryLimit) {
        this.deliveryLimit = deliveryLimit;
    }

    public Duration getJobTimeout() {
        return jobTimeout;
    }

    public void setJobTimeout(Duration jobTimeout) {
        this.jobTimeout = jobTimeout;
    }

    public Duration getRetention() {
        return retention;
    }

    public void setRetention(Duration retention) {
        this.retention = retention;
    }

    public Duration getGrace() {
        return grace;
    }

    public void setGrace(Duration grace) {
        this.grace = grace;
    }

    public Duration getCancelGrace() {
        return cancelGrace;
    }

    public void setCancelGrace(Duration cancelGrace) {
        this.cancelGrace = cancelGrace;
    }

    public Duration getNoHandlerGrace() {
        return noHandlerGrace;
    }

    public void setNoHandlerGrace(Duration noHandlerGrace) {
        this.noHandlerGrace = noHandlerGrace;
    }

    public Integer getPoolSize() {
        return poolSize;
    }

    public void setPoolSize(Integer poolSize) {
        this.poolSize = poolSize;
    }

    public Integer getBatchCommit() {
        return batchCommit;
    }

    public void setBatchCommit(Integer batchCommit) {
        this.batchCommit = batchCommit;
    }

    public JobThreads getJobThreads() {
        return jobThreads;
    }

    public void setJobThreads(JobThreads jobThreads) {
        this.jobThreads = jobThreads;
    }

    public Boolean getEnqueueThroughOutbox() {
        return enqueueThroughOutbox;
    }

    public void setEnqueueThroughOutbox(Boolean enqueueThroughOutbox) {
        this.enqueueThroughOutbox = enqueueThroughOutbox;
    }
}
