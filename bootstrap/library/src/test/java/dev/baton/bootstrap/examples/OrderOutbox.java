package dev.baton.bootstrap.examples;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/** The order and its shipping job commit together, or neither does: the job runs only for an order that exists. */
public final class OrderOutbox {
    private static final QueueName ORDERS = QueueName.of("shop-orders");

    private final PostgresAdapter.Outbox outbox;

    public OrderOutbox(Baton baton) {
        this.outbox = baton.outbox();
    }

    /** Plain JDBC: Baton writes on your connection and leaves the commit (or the rollback) to you. */
    public void placeWithJdbc(Connection connection, String orderId) throws SQLException {
        connection.setAutoCommit(false);
        try (PreparedStatement order = connection.prepareStatement("INSERT INTO shop_orders (order_id) VALUES (?)")) {
            order.setString(1, orderId);
            order.executeUpdate();
            outbox.enqueue(connection, ship(orderId));
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    /** Jdbi: the handle of your transaction. */
    public void placeWithJdbi(Jdbi jdbi, String orderId) {
        jdbi.useTransaction(handle -> {
            handle.execute("INSERT INTO shop_orders (order_id) VALUES (?)", orderId);
            outbox.enqueue(handle, ship(orderId));
        });
    }

    /** Spring: DataSourceUtils hands out the connection the TransactionTemplate's transaction is bound to. */
    public void placeWithSpring(TransactionTemplate transactions, DataSource dataSource, String orderId) {
        transactions.executeWithoutResult(status -> {
            new JdbcTemplate(dataSource).update("INSERT INTO shop_orders (order_id) VALUES (?)", orderId);
            try {
                outbox.enqueue(DataSourceUtils.getConnection(dataSource), ship(orderId));
            } catch (SQLException e) {
                throw new IllegalStateException("could not enqueue the shipping of order " + orderId, e);
            }
        });
    }

    private static EnqueueJobUseCase.Command ship(String orderId) {
        return EnqueueJobUseCase.Command.now(ORDERS, JobId.of("ship-" + orderId), "{\"orderId\":\"" + orderId + "\"}");
    }
}
