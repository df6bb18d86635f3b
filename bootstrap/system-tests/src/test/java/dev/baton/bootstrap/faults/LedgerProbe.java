package dev.baton.bootstrap.faults;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the ledger's record of outcomes, the outbox beside it and the demo handler's {@code demo_shipments} table
 * directly over JDBC, one short connection per question so that it survives PostgreSQL restarts and terminated
 * backends.
 *
 * <p>The ledger records terminal outcomes in {@value #OUTCOMES}, a row per job id with a {@code state}
 * ({@code completed}, {@code dead}, {@code replayed}, {@code purged}) and, for a dead job, its {@code reason}. A
 * schema migrated before that table existed holds only completions, in {@value #COMPLETIONS}; the probe reads
 * whichever the schema has, and reports no dead outcome from the older one.
 */
final class LedgerProbe {
    /** The ledger's table of terminal outcomes (adapters-postgres' migrations). */
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
            return count(connection, "select count(*) from " + table.name() + " where " + table.completed());
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

    /** Outbox rows not marked malformed: waiting, or published for a job that has not ended yet. */
    long outboxRowsLeft() {
        return query(connection -> count(connection, "select count(*) from " + schema
                + ".job_outbox where malformed is null"));
    }

    /** The reason of every outbox row the relay marked malformed, by position. */
    Map<Long, String> malformedOutboxRows() {
        return query(connection -> {
            Map<Long, String> reasons = new TreeMap<>();
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                    "select position, malformed from " + schema + ".job_outbox where malformed is not null")) {
                while (rows.next()) {
                    reasons.put(rows.getLong(1), rows.getString(2));
                }
            }
            return reasons;
        });
    }

    /** Outbox rows of the given jobs, whatever their state. */
    long outboxRowsOf(Collection<String> jobIds) {
        return query(connection -> {
            try (PreparedStatement statement = connection.prepareStatement("select count(*) from " + schema
                    + ".job_outbox where job_id = any(?)")) {
                statement.setArray(1, connection.createArrayOf("text", jobIds.toArray()));
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        });
    }

    /**
     * Effects (shipments) whose job has no row in the producer's own table {@code producerTable} (keyed by
     * {@code job_id}): jobs that ran though their producer's transaction did not commit.
     */
    long effectsWithoutARowIn(String producerTable) {
        return query(connection -> count(connection, "select count(*) from " + schema + ".demo_shipments s"
                + " where not exists (select from " + schema + "." + producerTable + " p where p.job_id = s.job_id)"));
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

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
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

    /** Runs {@code work} on a short connection of its own. */
    <T> T query(SqlWork<T> work) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("ledger query failed on " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }
}
