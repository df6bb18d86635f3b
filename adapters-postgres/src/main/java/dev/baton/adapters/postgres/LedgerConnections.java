package dev.baton.adapters.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.adapters.postgres.PostgresAdapter.Config;
import dev.baton.application.port.out.LedgerUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How the adapter reaches PostgreSQL: its own pool, the migrations' connections, and when the ledger is ready. */
final class LedgerConnections {
    /** The adapter's logger: operators filter these lines by it. */
    private static final Logger LOG = LoggerFactory.getLogger(PostgresAdapter.class);
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long opening waits for the first attempt when PostgreSQL need not answer: one that answers is migrated and
     * ready when opened, one that refuses is known down at once; a migration longer than this goes on meanwhile.
     */
    private static final Duration FIRST_WAIT = Duration.ofSeconds(30);
    /** The application name of the sessions that migrate, as pg_stat_activity shows them. */
    private static final String MIGRATIONS_APPLICATION = "baton migrations";

    private LedgerConnections() {
    }

    /**
     * Ready once PostgreSQL answers on {@code source} and, when {@link Config#migrateOnStart()}, the schema is
     * migrated there: now, or in the background.
     *
     * @param where       names the server in messages, without a password
     * @param checkPool   warn when Baton's own pool can never fill on this server
     */
    static Readiness readiness(Config config, DataSource source, String where, boolean checkPool, Clock clock) {
        Runnable prepare = () -> {
            try (Connection connection = source.getConnection()) {
                if (checkPool) {
                    warnWhenThePoolCannotFill(config, connection, where);
                }
            } catch (SQLException e) {
                throw new LedgerUnavailableException("cannot connect to PostgreSQL at " + where + " (BATON_JDBC_URL): "
                        + JdbcUrls.masked(e.getMessage()), e);
            }
            if (config.migrateOnStart()) {
                migrate(config, source, where);
            }
        };
        String server = "PostgreSQL at " + where;
        return config.requireServerAtOpen() ? Readiness.now(server, prepare)
                : Readiness.inBackground(server, prepare, clock, FIRST_WAIT);
    }

    static HikariDataSource createPool(Config config) {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("baton-postgres");
        hikari.setJdbcUrl(config.jdbcUrl());
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        if (!config.requireServerAtOpen()) {
            hikari.setInitializationFailTimeout(-1); // starts empty, and fills once PostgreSQL answers
        }
        hikari.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        hikari.addDataSourceProperty("ApplicationName", "baton");
        // the Baton schema first (the ledger and the tables of extra migrations), then the server's usual path
        hikari.setConnectionInitSql("SELECT set_config('search_path', concat_ws(', ', '" + config.schema()
                + "', nullif(current_setting('search_path'), '')), false)" + config.transactionTimeout()
                .map(timeout -> ", set_config('statement_timeout', '" + timeout.toMillis() + "', false)"
                        + ", set_config('idle_in_transaction_session_timeout', '" + timeout.toMillis() + "', false)")
                .orElse(""));
        try {
            return new HikariDataSource(hikari);
        } catch (RuntimeException e) {
            throw new LedgerUnavailableException("cannot connect to PostgreSQL at " + JdbcUrls.masked(config.jdbcUrl())
                    + " (BATON_JDBC_URL): " + JdbcUrls.masked(e.getMessage()), e);
        }
    }

    /** Warns rather than refusing to start: such a pool still runs jobs on the connections it gets. */
    private static void warnWhenThePoolCannotFill(Config config, Connection connection, String where) {
        try (Handle handle = Jdbi.open(connection)) {
            ServerConnections.read(handle).refusing(config.poolSize())
                    .ifPresent(problem -> LOG.warn("{} (at {})", problem, where));
        } catch (JdbiException e) {
            LOG.debug("could not read max_connections; the pool size was not checked", e);
        }
    }

    static void migrate(Config config, DataSource source, String where) {
        new Migrations(source, config.schema(), config.extraMigrationLocations(), where).apply();
    }

    /** Connections beside Baton's own pool, named so that a start waiting for the migrations' lock names them. */
    static DataSource migrationSource(Config config) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(config.jdbcUrl());
        dataSource.setApplicationName(MIGRATIONS_APPLICATION);
        return dataSource;
    }
}
