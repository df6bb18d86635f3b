package dev.baton.bootstrap.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads back what the {@link OrdersHandler} wrote: how many {@code demo_shipments} rows some jobs left. */
public final class DemoShipments {
    private DemoShipments() {
    }

    /** The rows, and the distinct job ids among them, of the jobs whose id starts with {@code jobIdPrefix}. */
    public record Count(long rows, long distinctJobs) {
    }

    /**
     * Counts on a connection of its own. A job whose effect ran twice shows up as two rows of one job: the table has
     * no unique constraint on purpose.
     */
    public static Count count(String jdbcUrl, String schema, String jobIdPrefix) {
        String like = jobIdPrefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             PreparedStatement statement = connection.prepareStatement("SELECT count(*), count(DISTINCT job_id) FROM "
                     + schema + ".demo_shipments WHERE job_id LIKE ?")) {
            statement.setString(1, like);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return new Count(rows.getLong(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not count the demo shipments: " + e.getMessage(), e);
        }
    }
}
