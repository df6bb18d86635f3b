package dev.baton.bootstrap.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Reads the ledger and demo tables of one schema directly, to check what the CLI did. */
final class Ledger {
    private final String jdbcUrl;
    private final String schema;

    Ledger(String jdbcUrl, String schema) {
        this.jdbcUrl = jdbcUrl;
        this.schema = schema;
    }

    long count(String sql, String queueOrPrefix) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             PreparedStatement statement = connection.prepareStatement(sql.replace("{schema}", schema))) {
            statement.setString(1, queueOrPrefix);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** The first column of every row {@code sql} returns, {@code ?} bound to {@code parameter}. */
    List<String> strings(String sql, String parameter) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             PreparedStatement statement = connection.prepareStatement(sql.replace("{schema}", schema))) {
            statement.setString(1, parameter);
            List<String> values = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    long completions(String queue) {
        return count("select count(*) from {schema}.job_outcomes where queue = ? and state = 'completed'", queue);
    }

    long shipments(String jobIdPrefix) {
        return count("select count(*) from {schema}.demo_shipments where job_id like ? || '%'", jobIdPrefix);
    }

    long distinctShippedJobs(String jobIdPrefix) {
        return count("select count(distinct job_id) from {schema}.demo_shipments where job_id like ? || '%'",
                jobIdPrefix);
    }
}
