package dev.baton.adapters.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one script and records it in its location's history, in one transaction: a script that fails leaves neither
 * its changes nor a history row. The script runs with the schema first on its {@code search_path} (for that
 * transaction only), as Flyway ran it; what the server reports while it runs ({@code RAISE NOTICE}) is logged at INFO.
 */
final class ScriptRunner {
    private static final Logger LOG = LoggerFactory.getLogger(ScriptRunner.class);

    private final String schema;

    ScriptRunner(String schema) {
        this.schema = schema;
    }

    /**
     * @throws MigrationException when the script fails (naming it and the server's error)
     * @throws SQLException       when the connection fails
     */
    void apply(Connection connection, MigrationLocation location, HistoryTable history, MigrationScript script)
            throws SQLException {
        String sql = script.sqlFor(schema);
        long started = System.nanoTime();
        connection.setAutoCommit(false);
        try {
            schemaFirst(connection);
            try (Statement statement = connection.createStatement()) {
                statement.setEscapeProcessing(false); // the script is PostgreSQL's SQL, without JDBC's {escapes}
                statement.execute(sql);
                logNotices(script, statement.getWarnings());
            }
            history.record(connection, script, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            connection.commit();
        } catch (SQLException e) {
            rollBack(connection, e);
            if (SqlFailures.isConnectionLoss(e)) {
                throw e;
            }
            throw new MigrationException(script.path() + " of " + location.name() + " failed and was rolled back: "
                    + e.getMessage() + " [SQLSTATE " + e.getSQLState() + "]", e);
        } finally {
            connection.setAutoCommit(true);
        }
        LOG.info("schema {}: applied {} of {}", schema, script.path(), location.name());
    }

    private void schemaFirst(Connection connection) throws SQLException {
        try (PreparedStatement path = connection.prepareStatement("SELECT set_config('search_path', concat_ws(', ',"
                + " quote_ident(?), nullif(current_setting('search_path'), '')), true)")) {
            path.setString(1, schema);
            path.execute();
        }
    }

    private void logNotices(MigrationScript script, SQLWarning warnings) {
        for (SQLWarning warning = warnings; warning != null; warning = warning.getNextWarning()) {
            LOG.info("schema {}, {}: {}", schema, script.path(), warning.getMessage());
        }
    }

    private static void rollBack(Connection connection, SQLException failure) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }
}
