package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.ADMIN_ADDRESS;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The ledger on the application's own pool: no second pool, and the application's pool outlives Baton. */
class ApplicationDataSourceTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aJobRunsOnTheApplicationsPoolLeftOpenAndUntouchedByClose() throws Exception {
        String schema = TestEndpoints.unique("app_pool");
        String queue = schema.replace('_', '-');
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(TestEndpoints.jdbcUrl());
        hikari.setMaximumPoolSize(4);
        hikari.setPoolName("the-application");
        try (HikariDataSource application = new HikariDataSource(hikari)) {
            try (Baton baton = Baton.builder().set(REDIS_URI, TestEndpoints.redisUri())
                    .set(JDBC_URL, "jdbc:postgresql://127.0.0.1:1/nowhere?user=nobody") // not used: the pool is given
                    .dataSource(application).set(SCHEMA, schema).set(ADMIN_ADDRESS, "off").handler(queue, context -> {
                        // unqualified names resolve in Baton's schema first, inside the job's transaction
                        return Optional.of(single(context.unwrap(Connection.class), "SELECT current_schema()"));
                    }).build()) {
                baton.enqueue(QueueName.of(queue), JobId.of("welcome-1"), "{}");
                baton.start(queue);

                await().atMost(WAIT).until(() -> baton.job(queue, "welcome-1") instanceof Whereabouts.Completed);
                Whereabouts.Completed completed = (Whereabouts.Completed) baton.job(queue, "welcome-1");
                assertThat(completed.completion().result()).contains(schema);
            }

            assertThat(application.isClosed()).as("Baton does not close what it does not own").isFalse();
            try (Connection connection = application.getConnection()) {
                assertThat(single(connection, "SELECT count(*) FROM " + schema + ".job_outcomes"))
                        .as("the ledger wrote through the application's pool").isEqualTo("1");
                assertThat(single(connection, "SHOW search_path")).as("the application's sessions keep their path")
                        .doesNotContain(schema);
            }
        }
    }

    private static String single(Connection connection, String sql) {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
