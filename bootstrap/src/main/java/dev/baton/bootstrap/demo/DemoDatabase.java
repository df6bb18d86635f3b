package dev.baton.bootstrap.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Direct reads and clean-up of the demo tables, for the benchmark's exactly-once check. Like the demo handlers, this
 * is user code that talks to PostgreSQL itself; Baton's own code reaches the database only through the ledger.
 */
public final class DemoDatabase {
    private DemoDatabase() {
    }

    /** Rows of {@code demo_shipments} and distinct job ids among them, for jobs whose id starts with a prefix. */
    public record ShipmentCount(long rows, long distinctJobs) {
    }

    public static ShipmentCount shipments(String jdbcUrl, String schema, String jobIdPrefix) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*), count(DISTINCT job_id) FROM " + schema
                     + ".demo_shipments WHERE job_id LIKE '" + jobIdPrefix.replace("'", "''") + "%'")) {
            rows.next();
            return new ShipmentCount(rows.getLong(1), rows.getLong(2));
        } catch (SQLException e) {
            throw new IllegalStateException("could not count the demo rows: " + e.getMessage(), e);
        }
    }

    /** Drops a scratch schema with everything in it (the benchmark's own, never a user's). */
    public static void dropSchema(String jdbcUrl, String schema) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             Statement sql = connection.createStatement()) {
            sql.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop schema " + schema + ": " + e.getMessage(), e);
        }
    }
}
