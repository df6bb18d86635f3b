package dev.baton.adapters.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.out.AuditTrail;
import dev.baton.application.port.out.EffectRecords;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.Retention;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.postgres.PostgresPlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Baton's PostgreSQL adapter: the {@link ExecutionLedger} over a HikariCP pool, and the migrations of its schema.
 * Handlers reach the ledger's transaction with {@code context.unwrap(org.jdbi.v3.core.Handle.class)} or
 * {@code context.unwrap(java.sql.Connection.class)}; unqualified table names resolve in the Baton schema first.
 */
public final class PostgresAdapter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresAdapter.class);
    private static final int VALIDATION_TIMEOUT_SECONDS = 2;
    private static final String APPLICATION_DATA_SOURCE = "the application's DataSource";

    private final Config config;
    private final DataSource pool;
    /** The pool this adapter opened, closed with it; empty on the application's DataSource, which it never closes. */
    private final Optional<HikariDataSource> ownPool;
    private final Readiness readiness;
    private final Jdbi jdbi;
    private final ExecutionLedger ledger;
    private final JobOutcomes outcomes;
    private final AuditTrail auditTrail;
    private final Clock clock;
    private final PostgresJobOutbox jobOutbox;

    private PostgresAdapter(Config config, DataSource pool, Optional<HikariDataSource> ownPool, Clock clock,
                            Readiness readiness) {
        this.config = config;
        this.pool = pool;
        this.ownPool = ownPool;
        this.clock = clock;
        this.readiness = readiness;
        // no connection before PostgreSQL is ready: the migrations come first, and a server that is down fails fast
        this.jdbi = Jdbi.create(() -> {
            readiness.require();
            return pool.getConnection();
        }).installPlugin(new PostgresPlugin());
        jdbi.setTransactionHandler(new EffectGuard.Transactions(jdbi.getTransactionHandler()));
        jdbi.getConfig(SqlStatements.class).addCustomizer(EffectGuard.COUNTING);
        this.ledger = ledger(clock);
        this.outcomes = new PostgresJobOutcomes(jdbi, new CompletionTable(config.schema()));
        this.auditTrail = new PostgresAuditTrail(jdbi, config.schema());
        // listening holds a connection for good: on Baton's own pool, one beside it rather than one of it
        this.jobOutbox = new PostgresJobOutbox(jdbi, config.schema(), () -> {
            readiness.require();
            return ownPool.isPresent() ? DriverManager.getConnection(config.jdbcUrl()) : pool.getConnection();
        });
    }

    /**
     * Opens the pool and, when {@link Config#migrateOnStart()}, migrates the schema. When PostgreSQL does not answer
     * and {@link Config#requireServerAtOpen()} is false, it returns anyway and connects (and migrates) in the
     * background (docs/POSTGRES.md#when-postgresql-is-down-at-start): every ledger call fails at once with a
     * {@link LedgerUnavailableException} until then, and {@link #whyUnreachable()} tells why.
     *
     * @throws LedgerUnavailableException when PostgreSQL cannot be reached and {@link Config#requireServerAtOpen()}
     */
    public static PostgresAdapter open(Config config, Clock clock) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        HikariDataSource pool = LedgerConnections.createPool(config);
        try {
            Readiness readiness = LedgerConnections.readiness(config, LedgerConnections.migrationSource(config),
                    JdbcUrls.masked(config.jdbcUrl()), true, clock);
            return new PostgresAdapter(config, pool, Optional.of(pool), clock, readiness);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * Runs the ledger (and, when {@link Config#migrateOnStart()}, the migrations) on connections of the application's
     * {@code dataSource} instead of a pool of its own; {@link #close()} leaves it open. The connections are the
     * application's, so nothing is set on their sessions: each job's transaction puts the schema first on its
     * {@code search_path} and sets its timeouts itself. The config's JDBC URL, pool size and transaction timeout do
     * not apply; the transactions are the data source's default isolation, READ COMMITTED in PostgreSQL. The
     * migrations take one connection of it while they run.
     * A PostgreSQL that does not answer is waited for as by {@link #open(Config, Clock)}.
     */
    public static PostgresAdapter open(Config config, DataSource dataSource, Clock clock) {
        Objects.requireNonNull(dataSource, "data source");
        Objects.requireNonNull(clock, "clock");
        Config shared = new Config(config.jdbcUrl(), config.schema(), config.poolSize(), config.migrateOnStart(),
                config.retention(), config.extraMigrationLocations(), Optional.empty(), config.requireServerAtOpen());
        Readiness readiness = LedgerConnections.readiness(shared, dataSource, APPLICATION_DATA_SOURCE, false, clock);
        return new PostgresAdapter(shared, dataSource, Optional.empty(), clock, readiness);
    }

    /** The execution ledger, using the clock given to {@link #open}. */
    public ExecutionLedger ledger() {
        return ledger;
    }

    /** The ledger's record of dead letters, replays and purges, in the same table as the completions. */
    public JobOutcomes outcomes() {
        return outcomes;
    }

    /** The audit trail of the changes asked of the admin server. */
    public AuditTrail auditTrail() {
        return auditTrail;
    }

    /**
     * Enqueues jobs inside the caller's own transaction, on the caller's connection, with the default payload limit
     * (the SQL function {@code <schema>.enqueue} admits the same).
     */
    public Outbox outbox() {
        return new JdbcOutbox(config.schema(), clock, PayloadLimit.DEFAULT);
    }

    /**
     * Enqueues jobs inside the caller's own transaction: it writes outbox rows on the caller's connection (one
     * statement for any number of jobs) and never commits, rolls back or closes it. The jobs run once that
     * transaction commits (a relay publishes them), and never when it rolls back. Works with any connection of the
     * ledger's database: plain JDBC, Spring's transaction-bound one ({@code DataSourceUtils.getConnection}), jOOQ's,
     * or a Jdbi {@link Handle}. Every job is checked before any row is written. See
     * docs/HANDLERS.md#enqueueing-in-your-transaction.
     */
    public interface Outbox {
        /** Enqueues one job in {@code connection}'s transaction. @return the job as enqueued */
        Job enqueue(Connection connection, EnqueueJobUseCase.Command command) throws SQLException;

        /** Enqueues the jobs in {@code connection}'s transaction, in one round trip. @return the jobs, in order */
        List<Job> enqueueAll(Connection connection, EnqueueJobsUseCase.Command command) throws SQLException;

        /** Enqueues one job in {@code handle}'s transaction. @return the job as enqueued */
        Job enqueue(Handle handle, EnqueueJobUseCase.Command command);

        /** Enqueues the jobs in {@code handle}'s transaction, in one round trip. @return the jobs, in order */
        List<Job> enqueueAll(Handle handle, EnqueueJobsUseCase.Command command);
    }

    /**
     * Enqueues through the outbox, for producers without a transaction of their own: each call one short transaction
     * on this adapter's pool, its jobs published by a relay once it committed. Refuses unique jobs.
     */
    public JobPublisher outboxPublisher() {
        return new OutboxPublisher(jdbi, new JdbcOutbox(config.schema(), clock, PayloadLimit.DEFAULT));
    }

    /** The outbox as the relay claims and publishes it. */
    public JobOutbox jobOutbox() {
        return jobOutbox;
    }

    /** Counts the rows that handlers' effects left in tables of the ledger's schema. */
    public EffectRecords effectRecords() {
        return new PostgresEffectRecords(jdbi, config.schema());
    }

    /** A ledger on this adapter's pool with another clock (the contract tests drive time). */
    ExecutionLedger ledger(Clock clock) {
        return ledger(clock, CompletionLookups.FORGET_BATCH_SIZE);
    }

    ExecutionLedger ledger(Clock clock, int forgetBatchSize) {
        return new PostgresExecutionLedger(jdbi, config.schema(), clock, forgetBatchSize,
                config.transactionTimeout(), ownPool.isEmpty());
    }

    /**
     * Applies the ledger's migrations, then those of every extra location, each with its own history table. Safe to
     * run from several workers at once (an advisory lock serializes them) and to repeat (applied versions are
     * skipped). Migrations run on a connection of their own, outside the pool (on the application's DataSource, on
     * one from it).
     */
    public void migrate() {
        if (ownPool.isEmpty()) {
            LedgerConnections.migrate(config, pool, APPLICATION_DATA_SOURCE);
        } else {
            LedgerConnections.migrate(config, LedgerConnections.migrationSource(config),
                    JdbcUrls.masked(config.jdbcUrl()));
        }
    }

    /**
     * Drops the configured schema with everything in it: the ledger, its history and the extra locations' tables.
     * For throwaway schemas (benchmarks, tests), never for one that workers still use.
     */
    public void dropSchema() {
        try {
            jdbi.useHandle(handle -> handle.execute("DROP SCHEMA IF EXISTS " + config.schema() + " CASCADE"));
        } catch (JdbiException e) {
            throw new LedgerUnavailableException("could not drop schema " + config.schema() + ": "
                    + JdbcUrls.masked(String.valueOf(e.getMessage())), e);
        }
    }

    /** True when a pooled connection answers within a couple of seconds; for health checks. */
    public boolean isReachable() {
        return whyUnreachable().isEmpty();
    }

    /**
     * Why the ledger cannot reach PostgreSQL now, for a health check: not ready yet (since when, and the last
     * attempt's error: unreachable, or the migrations failed), or no pooled connection that answers within a couple
     * of seconds. Empty when it answers. Never shows a password.
     */
    public Optional<String> whyUnreachable() {
        Optional<String> notReady = readiness.whyNotReady();
        if (notReady.isPresent()) {
            return notReady;
        }
        try (Connection connection = pool.getConnection()) {
            return connection.isValid(VALIDATION_TIMEOUT_SECONDS) ? Optional.empty()
                    : Optional.of("a connection to PostgreSQL did not answer within " + VALIDATION_TIMEOUT_SECONDS
                    + " s");
        } catch (SQLException | RuntimeException e) {
            return Optional.of("no connection to PostgreSQL: " + JdbcUrls.masked(String.valueOf(e.getMessage())));
        }
    }

    @Override
    public void close() {
        readiness.close();
        jobOutbox.closeListener();
        ownPool.ifPresent(HikariDataSource::close);
    }

    /**
     * How the adapter connects and what it keeps.
     *
     * @param jdbcUrl                  {@code BATON_JDBC_URL}, e.g. {@code jdbc:postgresql://db:5432/app?user=baton}
     * @param schema                   {@code BATON_SCHEMA}: the ledger's schema, created by the migrations
     * @param poolSize                 maximum pooled connections: one per job running at the same time, plus a few
     * @param migrateOnStart           apply the migrations when the adapter opens
     * @param retention                how long completions must be kept ({@link #requireCovers}); the ledger forgets
     *                                 them only when told to ({@code ExecutionLedger.forgetCompletedBefore})
     * @param extraMigrationLocations  migration locations of the handlers' own tables (e.g. {@code classpath:db/shop}),
     *                                 applied after the ledger's into the same schema, each with its own history
     * @param requireServerAtOpen      true (the default) to fail {@link #open} when PostgreSQL does not answer (or
     *                                 the migrations fail); false to open anyway, connect and migrate in the
     *                                 background, and fail every ledger call at once until then
     */
    public record Config(String jdbcUrl, String schema, int poolSize, boolean migrateOnStart, Retention retention,
                         List<String> extraMigrationLocations, Optional<Duration> transactionTimeout,
                         boolean requireServerAtOpen) {
        public static final String DEFAULT_SCHEMA = "baton";
        public static final int DEFAULT_POOL_SIZE = 10;
        public static final int MAX_POOL_SIZE = 1_000;

        /** A lower-case PostgreSQL identifier that needs no quotes: schema and table names are spliced into SQL. */
        static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

        public Config {
            ConfigChecks.requireJdbcUrl(jdbcUrl);
            if (schema == null || !IDENTIFIER.matcher(schema).matches() || schema.startsWith("pg_")) {
                throw new InvalidValueException("BATON_SCHEMA must be a lower-case PostgreSQL identifier (1..63 "
                        + "letters a-z, digits or '_', not starting with a digit or 'pg_'), got "
                        + (schema == null ? "nothing" : "'" + ConfigChecks.abbreviate(schema) + "'"));
            }
            if (poolSize < 1 || poolSize > MAX_POOL_SIZE) {
                throw new InvalidValueException(
                        "the PostgreSQL pool size must be between 1 and " + MAX_POOL_SIZE + ", got " + poolSize);
            }
            if (retention == null) {
                throw new InvalidValueException("the ledger retention is required");
            }
            extraMigrationLocations = ConfigChecks.requireLocations(extraMigrationLocations);
            Objects.requireNonNull(transactionTimeout, "transaction timeout");
            if (transactionTimeout.isPresent() && (transactionTimeout.get().toMillis() < 1
                    || transactionTimeout.get().toMillis() > Integer.MAX_VALUE)) {
                throw new InvalidValueException("the PostgreSQL transaction timeout must be between 1 and "
                        + Integer.MAX_VALUE + " ms, got " + transactionTimeout.get());
            }
        }

        /** PostgreSQL must answer at open. */
        public Config(String jdbcUrl, String schema, int poolSize, boolean migrateOnStart, Retention retention,
                      List<String> extraMigrationLocations, Optional<Duration> transactionTimeout) {
            this(jdbcUrl, schema, poolSize, migrateOnStart, retention, extraMigrationLocations, transactionTimeout,
                    true);
        }

        /** PostgreSQL must answer at open; each transaction sets its own timeouts. */
        public Config(String jdbcUrl, String schema, int poolSize, boolean migrateOnStart, Retention retention,
                      List<String> extraMigrationLocations) {
            this(jdbcUrl, schema, poolSize, migrateOnStart, retention, extraMigrationLocations, Optional.empty());
        }

        /** Defaults: schema {@code baton}, 10 connections, migrate on start, {@link Retention#DEFAULT}. */
        public static Config of(String jdbcUrl) {
            return new Config(jdbcUrl, DEFAULT_SCHEMA, DEFAULT_POOL_SIZE, true, Retention.DEFAULT, List.of());
        }

        public Config withSchema(String newSchema) {
            return new Config(jdbcUrl, newSchema, poolSize, migrateOnStart, retention, extraMigrationLocations,
                    transactionTimeout, requireServerAtOpen);
        }

        public Config withPoolSize(int newPoolSize) {
            return new Config(jdbcUrl, schema, newPoolSize, migrateOnStart, retention, extraMigrationLocations,
                    transactionTimeout, requireServerAtOpen);
        }

        public Config withMigrateOnStart(boolean migrate) {
            return new Config(jdbcUrl, schema, poolSize, migrate, retention, extraMigrationLocations,
                    transactionTimeout, requireServerAtOpen);
        }

        public Config withRetention(Retention newRetention) {
            return new Config(jdbcUrl, schema, poolSize, migrateOnStart, newRetention, extraMigrationLocations,
                    transactionTimeout, requireServerAtOpen);
        }

        /**
         * The longest a job's transaction may run (the worker's job timeout): every pooled connection gets it as its
         * {@code statement_timeout} and {@code idle_in_transaction_session_timeout}, so that a transaction whose
         * deadline is that far needs no statement of its own to set them. Without it, each transaction sets both.
         */
        public Config withTransactionTimeout(Duration timeout) {
            return new Config(jdbcUrl, schema, poolSize, migrateOnStart, retention, extraMigrationLocations,
                    Optional.of(timeout), requireServerAtOpen);
        }

        public Config withExtraMigrationLocations(List<String> locations) {
            return new Config(jdbcUrl, schema, poolSize, migrateOnStart, retention, locations, transactionTimeout,
                    requireServerAtOpen);
        }

        /**
         * The same configuration, opening even when PostgreSQL does not answer ({@code false}): the adapter connects
         * and migrates in the background, and every ledger call fails at once until then.
         */
        public Config withRequireServerAtOpen(boolean required) {
            return new Config(jdbcUrl, schema, poolSize, migrateOnStart, retention, extraMigrationLocations,
                    transactionTimeout, required);
        }

        /**
         * Checks that completions outlive the stream's history: a redelivery can come as late as the stream keeps
         * the job, and the ledger must still know the job completed by then, or its effect would run again.
         *
         * @throws InvalidValueException when this ledger retention is shorter than {@code streamRetention}
         */
        public void requireCovers(Retention streamRetention) {
            Objects.requireNonNull(streamRetention, "stream retention");
            if (!streamRetention.isCoveredBy(retention)) {
                throw new InvalidValueException("the ledger keeps completions for " + retention.maxAge()
                        + " but the stream keeps history for " + streamRetention.maxAge()
                        + ": a late redelivery could run a completed job again; keep completions at least as long");
            }
        }

        /** Never prints the password. */
        @Override
        public String toString() {
            return "Config[jdbcUrl=" + JdbcUrls.masked(jdbcUrl) + ", schema=" + schema + ", poolSize=" + poolSize
                    + ", migrateOnStart=" + migrateOnStart + ", retention=" + retention
                    + ", extraMigrationLocations=" + extraMigrationLocations + ", requireServerAtOpen="
                    + requireServerAtOpen + "]";
        }
    }
}
