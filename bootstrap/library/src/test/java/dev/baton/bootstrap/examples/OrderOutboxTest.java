package dev.baton.bootstrap.examples;

import static dev.baton.bootstrap.config.Setting.ADMIN_ADDRESS;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/** Each way of the example: an order placed has its job in the outbox, a second order of the same id has neither. */
class OrderOutboxTest {
    private final String schema = TestEndpoints.unique("order_outbox");
    // the example's unqualified table resolves in the test's schema
    private final String url = TestEndpoints.jdbcUrl() + "&currentSchema=" + schema;
    private Baton baton;
    private OrderOutbox orders;

    @BeforeEach
    void open() throws SQLException {
        baton = Baton.builder().set(REDIS_URI, TestEndpoints.redisUri()).set(JDBC_URL, TestEndpoints.jdbcUrl())
                .set(SCHEMA, schema)
                .set(ADMIN_ADDRESS, "off").build();
        orders = new OrderOutbox(baton);
        baton.migrate();
        try (Connection connection = DriverManager.getConnection(url)) {
            connection.createStatement().execute("CREATE TABLE shop_orders (order_id text PRIMARY KEY)");
        }
    }

    @AfterEach
    void close() {
        baton.close();
    }

    @Test
    void plainJdbc() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url)) {
            orders.placeWithJdbc(connection, "j-1");
            assertThatThrownBy(() -> orders.placeWithJdbc(connection, "j-1")).isInstanceOf(SQLException.class);
        }
        assertThat(jobsInTheOutbox()).containsExactly("ship-j-1");
    }

    @Test
    void jdbi() {
        Jdbi jdbi = Jdbi.create(url);
        orders.placeWithJdbi(jdbi, "i-1");
        assertThatThrownBy(() -> orders.placeWithJdbi(jdbi, "i-1")).isInstanceOf(RuntimeException.class);
        assertThat(jobsInTheOutbox()).containsExactly("ship-i-1");
    }

    @Test
    void springTransactionTemplate() {
        DriverManagerDataSource dataSource = new DriverManagerDataSource(url);
        TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        orders.placeWithSpring(transactions, dataSource, "s-1");
        assertThatThrownBy(() -> orders.placeWithSpring(transactions, dataSource, "s-1"))
                .isInstanceOf(RuntimeException.class);
        assertThat(jobsInTheOutbox()).containsExactly("ship-s-1");
    }

    private List<String> jobsInTheOutbox() {
        return Jdbi.create(url).withHandle(handle -> handle.createQuery("SELECT job_id FROM job_outbox")
                .mapTo(String.class).list());
    }
}
