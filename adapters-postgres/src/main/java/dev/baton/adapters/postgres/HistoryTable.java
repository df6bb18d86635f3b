package dev.baton.adapters.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The history table of one migration location, in Flyway's format, so that the histories of ledgers that Flyway
 * migrated read as they are and grow as Flyway would have grown them: one row per script applied ({@code type}
 * {@code SQL}), and Flyway's own {@code BASELINE} and {@code SCHEMA} rows, which Baton reads and never writes.
 */
final class HistoryTable {
    private final String schema;
    private final String qualifiedName;
    private final String name;

    HistoryTable(String schema, String name) {
        this.schema = schema;
        this.name = name;
        this.qualifiedName = quoted(schema) + "." + quoted(name);
    }

    /**
     * The scripts the table records as applied: its successful rows with a version, in the order applied. A
     * {@code BASELINE} row counts as its version applied. Empty when there is no table yet.
     */
    List<AppliedScript> applied(Connection connection) throws SQLException {
        if (!exists(connection)) {
            return List.of();
        }
        List<AppliedScript> applied = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT version, script, checksum FROM " + qualifiedName
                     + " WHERE success AND version IS NOT NULL ORDER BY installed_rank")) {
            while (row.next()) {
                int checksum = row.getInt(3);
                applied.add(new AppliedScript(version(row.getString(1)), row.getString(2),
                        row.wasNull() ? null : checksum));
            }
        }
        return applied;
    }

    /**
     * Creates the table as Flyway creates it, and the schema when missing: only then, since creating a schema takes a
     * privilege on the whole database that the owner of an existing one may lack.
     */
    void create(Connection connection) throws SQLException {
        if (exists(connection)) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            if (!schemaExists(connection)) {
                statement.execute("CREATE SCHEMA " + quoted(schema));
            }
            statement.execute("CREATE TABLE " + qualifiedName + " ("
                    + "installed_rank INT NOT NULL, version VARCHAR(50), description VARCHAR(200) NOT NULL,"
                    + " type VARCHAR(20) NOT NULL, script VARCHAR(1000) NOT NULL, checksum INTEGER,"
                    + " installed_by VARCHAR(100) NOT NULL, installed_on TIMESTAMP NOT NULL DEFAULT now(),"
                    + " execution_time INTEGER NOT NULL, success BOOLEAN NOT NULL)");
            statement.execute("ALTER TABLE " + qualifiedName + " ADD CONSTRAINT " + quoted(name + "_pk")
                    + " PRIMARY KEY (installed_rank)");
            statement.execute("CREATE INDEX " + quoted(name + "_s_idx") + " ON " + qualifiedName + " (success)");
        }
    }

    /** Records {@code script} as applied, in the caller's transaction (the script's own). */
    void record(Connection connection, MigrationScript script, long executionMillis) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + qualifiedName
                + " (installed_rank, version, description, type, script, checksum, installed_by, execution_time,"
                + " success) SELECT coalesce(max(installed_rank), 0) + 1, ?, ?, 'SQL', ?, ?, current_user, ?, true"
                + " FROM " + qualifiedName)) {
            insert.setString(1, script.version().toString());
            insert.setString(2, script.description());
            insert.setString(3, script.path());
            insert.setObject(4, script.checksum(), Types.INTEGER);
            insert.setInt(5, (int) Math.min(Integer.MAX_VALUE, executionMillis));
            insert.executeUpdate();
        }
    }

    @Override
    public String toString() {
        return schema + "." + name;
    }

    private boolean schemaExists(Connection connection) throws SQLException {
        try (PreparedStatement lookup = connection.prepareStatement("SELECT count(*) FROM pg_namespace"
                + " WHERE nspname = ?")) {
            lookup.setString(1, schema);
            try (ResultSet row = lookup.executeQuery()) {
                return row.next() && row.getInt(1) > 0;
            }
        }
    }

    private boolean exists(Connection connection) throws SQLException {
        try (PreparedStatement lookup = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            lookup.setString(1, qualifiedName);
            try (ResultSet row = lookup.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        }
    }

    private ScriptVersion version(String recorded) {
        try {
            return ScriptVersion.parse(recorded);
        } catch (IllegalArgumentException e) {
            throw new MigrationException(this + " records version '" + recorded + "', which is not a version like 1,"
                    + " 2, 10 or 1.1", e);
        }
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** A script the history records as applied; {@code checksum} is null for a baseline. */
    record AppliedScript(ScriptVersion version, String script, Integer checksum) {
    }
}
