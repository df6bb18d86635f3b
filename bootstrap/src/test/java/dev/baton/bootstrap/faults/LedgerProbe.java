package dev.baton.bootstrap.faults;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the ledger's completion table and the demo handler's {@code demo_shipments} table directly over JDBC, one
 * short connection per question so that it survives PostgreSQL restarts and terminated backends.
 */
final class LedgerProbe {
    /** The ledger's outcome table (adapters-postgres' Flyway migrations); completions are its rows in this state. */
    static final String COMPLETIONS = "job_outcomes";
    private static final String COMPLETED = " state = 'completed'";

    private final String jdbcUrl;
    private final String schema;

    LedgerProbe(String jdbcUrl, String schema) {
        this.jdbcUrl = jdbcUrl;
        this.schema = schema;
    }

    /** Completion rows per job id. */
    Map<String, Integer> completions() {
        return countPerKey("select job_id, count(*) from " + schema + "." + COMPLETIONS + " where" + COMPLETED
                + " group by job_id");
    }

    /** Effects (shipment rows) per job id. */
    Map<String, Integer> effects() {
        return countPerKey("select job_id, count(*) from " + schema + ".demo_shipments group by job_id");
    }

    /** How many completion rows exist; 0 before the workers created the schema. */
    long completedCount() {
        return query(connection -> {
            try (Statement statement = connection.createStatement()) {
                if (!tableExists(connection, COMPLETIONS)) {
                    return 0L;
                }
                try (ResultSet rows = statement.executeQuery("select count(*) from " + schema + "." + COMPLETIONS
                        + " where" + COMPLETED)) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        });
    }

    /** Records a completion as a worker would have committed it (to stage a redelivery of a completed job). */
    void recordCompletion(String jobId, String queue, String entryId) {
        query(connection -> {
            try (PreparedStatement statement = connection.prepareStatement("insert into " + schema + "."
                    + COMPLETIONS + " (job_id, queue, type, attempt, consumer, message_id, completed_at)"
                    + " values (?, ?, 'orders', 1, 'ghost', ?, now())")) {
                statement.setString(1, jobId);
                statement.setString(2, queue);
                statement.setString(3, entryId);
                statement.executeUpdate();
                return null;
            }
        });
    }

    /** Whether the job has a completion row. */
    boolean isCompleted(String jobId) {
        return query(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "select 1 from " + schema + "." + COMPLETIONS + " where job_id = ? and" + COMPLETED)) {
                statement.setString(1, jobId);
                try (ResultSet rows = statement.executeQuery()) {
                    return rows.next();
                }
            }
        });
    }

    void dropSchema() {
        query(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("drop schema if exists " + schema + " cascade");
                return null;
            }
        });
    }

    private Map<String, Integer> countPerKey(String sql) {
        return query(connection -> {
            Map<String, Integer> counts = new HashMap<>();
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                while (rows.next()) {
                    counts.put(rows.getString(1), rows.getInt(2));
                }
            }
            return counts;
        });
    }

    private boolean tableExists(Connection connection, String table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "select 1 from information_schema.tables where table_schema = ? and table_name = ?")) {
            statement.setString(1, schema);
            statement.setString(2, table);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    private <T> T query(SqlWork<T> work) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("ledger query failed on " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }
}
