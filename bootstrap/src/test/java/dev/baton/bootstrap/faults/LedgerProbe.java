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
 * Reads the ledger's record of outcomes and the demo handler's {@code demo_shipments} table directly over JDBC, one
 * short connection per question so that it survives PostgreSQL restarts and terminated backends.
 *
 * <p>The ledger records terminal outcomes in {@value #OUTCOMES}, a row per job id with a {@code state}
 * ({@code completed}, {@code dead}, {@code replayed}, {@code purged}) and, for a dead job, its {@code reason}. A
 * schema migrated before that table existed holds only completions, in {@value #COMPLETIONS}; the probe reads
 * whichever the schema has, and reports no dead outcome from the older one.
 */
final class LedgerProbe {
    /** The ledger's table of terminal outcomes (adapters-postgres' Flyway migrations). */
    static final String OUTCOMES = "job_outcomes";
    /** The ledger's completion table before {@value #OUTCOMES} replaced it. */
    static final String COMPLETIONS = "job_completions";

    private final String jdbcUrl;
    private final String schema;

    LedgerProbe(String jdbcUrl, String schema) {
        this.jdbcUrl = jdbcUrl;
        this.schema = schema;
    }

    /** Completions per job id. */
    Map<String, Integer> completions() {
        return query(connection -> {
            Completions table = completionsIn(connection);
            return countPerKey(connection, "select job_id, count(*) from " + table.name() + " where "
                    + table.completed() + " group by job_id");
        });
    }

    /** Whether the schema records terminal outcomes (dead jobs too), not only completions. */
    boolean recordsOutcomes() {
        return query(connection -> tableExists(connection, OUTCOMES));
    }

    /** The reason of every job the ledger records as dead (none where the schema records only completions). */
    Map<String, String> deadOutcomes() {
        return query(connection -> {
            Map<String, String> reasons = new HashMap<>();
            if (!tableExists(connection, OUTCOMES)) {
                return reasons;
            }
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                    "select job_id, reason from " + schema + "." + OUTCOMES + " where state = 'dead'")) {
                while (rows.next()) {
                    reasons.put(rows.getString(1), rows.getString(2) == null ? "" : rows.getString(2));
                }
            }
            return reasons;
        });
    }

    /** Effects (shipment rows) per job id. */
    Map<String, Integer> effects() {
        return query(connection -> countPerKey(connection, "select job_id, count(*) from " + schema
                + ".demo_shipments group by job_id"));
    }

    /** How many jobs completed; 0 before the workers created the schema. */
    long completedCount() {
        return query(connection -> {
            if (!tableExists(connection, OUTCOMES) && !tableExists(connection, COMPLETIONS)) {
                return 0L;
            }
            Completions table = completionsIn(connection);
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                    "select count(*) from " + table.name() + " where " + table.completed())) {
                rows.next();
                return rows.getLong(1);
            }
        });
    }

    /** Records a completion as a worker would have committed it (to stage a redelivery of a completed job). */
    void recordCompletion(String jobId, String queue, String entryId) {
        query(connection -> {
            boolean outcomes = tableExists(connection, OUTCOMES);
            try (PreparedStatement statement = connection.prepareStatement("insert into " + schema + "."
                    + (outcomes ? OUTCOMES : COMPLETIONS)
                    + " (job_id, queue, type, attempt, consumer, message_id, completed_at"
                    + (outcomes ? ", state" : "") + ") values (?, ?, 'orders', 1, 'ghost', ?, now()"
                    + (outcomes ? ", 'completed'" : "") + ")")) {
                statement.setString(1, jobId);
                statement.setString(2, queue);
                statement.setString(3, entryId);
                statement.executeUpdate();
                return null;
            }
        });
    }

    /** Whether the job completed. */
    boolean isCompleted(String jobId) {
        return query(connection -> {
            Completions table = completionsIn(connection);
            try (PreparedStatement statement = connection.prepareStatement(
                    "select 1 from " + table.name() + " where " + table.completed() + " and job_id = ?")) {
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

    /** Where the schema records completions: its table and the condition a completion's row meets. */
    private record Completions(String name, String completed) {
    }

    private Completions completionsIn(Connection connection) throws SQLException {
        return tableExists(connection, OUTCOMES) ? new Completions(schema + "." + OUTCOMES, "state = 'completed'")
                : new Completions(schema + "." + COMPLETIONS, "true");
    }

    private static Map<String, Integer> countPerKey(Connection connection, String sql) throws SQLException {
        Map<String, Integer> counts = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                counts.put(rows.getString(1), rows.getInt(2));
            }
        }
        return counts;
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
