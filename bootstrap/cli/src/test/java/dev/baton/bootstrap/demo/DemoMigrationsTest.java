package dev.baton.bootstrap.demo;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The demo handlers' tables come with them: an embedding service that does not register them never gets the tables. */
class DemoMigrationsTest {
    private final String jdbcUrl = TestEndpoints.jdbcUrl();
    private final String schema = TestEndpoints.unique("demo_migrations");

    @AfterEach
    void dropSchema() throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + schema + " cascade");
        }
    }

    @Test
    void anEmbeddedBatonMigratesTheLedgerAndNoDemoTable() throws SQLException {
        try (Baton baton = Baton.builder().set(JDBC_URL, jdbcUrl).set(SCHEMA, schema).build()) {
            baton.migrate();
        }

        assertThat(tables()).contains("job_outcomes", "baton_schema_history")
                .noneMatch(name -> name.contains("demo"));
    }

    @Test
    void theDemoHandlersBringTheirTablesWithTheirOwnHistory() throws SQLException {
        try (Baton baton = DemoHandlers.register(Baton.builder().set(JDBC_URL, jdbcUrl).set(SCHEMA, schema), false)
                .build()) {
            baton.migrate();
        }

        assertThat(tables()).contains("job_outcomes", "demo_shipments", "demo_chunks",
                "baton_schema_history_db_demo");
    }

    private List<String> tables() throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             PreparedStatement statement = connection.prepareStatement(
                     "select table_name from information_schema.tables where table_schema = ?")) {
            statement.setString(1, schema);
            List<String> names = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
            return names;
        }
    }
}
