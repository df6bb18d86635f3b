package dev.baton.bootstrap.examples;

import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.MAX_ATTEMPTS;
import static dev.baton.bootstrap.config.Setting.MIGRATIONS;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import java.util.List;

/** Baton embedded in an application: one object to enqueue, run workers and close. */
public final class ShopApplication implements AutoCloseable {
    private final Baton baton;
    private final OrderProducer producer;

    public ShopApplication(String redisUri, String jdbcUrl, String schema) {
        this.baton = Baton.builder()
                .set(REDIS_URI, redisUri)          // else BATON_REDIS_URI's default, redis://127.0.0.1:6379
                .set(JDBC_URL, jdbcUrl)            // the ledger, in the application's own database
                .set(SCHEMA, schema)               // the ledger's tables and the shop's, side by side
                .set(MIGRATIONS, List.of("classpath:db/shop")) // the shop's own tables, after the ledger's
                .set(CONCURRENCY, 4)               // every BATON_* setting is a Setting; the builder's win
                .set(MAX_ATTEMPTS, 3)
                .handler(new ShipOrderHandler())   // or list it in META-INF/services, or use ShopHandlers
                .build();
        this.producer = new OrderProducer(baton);
    }

    /** Runs shop orders in this process, with the configured concurrency. */
    public RunningWorker startWorker() {
        return baton.start("shop-orders");
    }

    public OrderProducer producer() {
        return producer;
    }

    public Baton baton() {
        return baton;
    }

    @Override
    public void close() {
        baton.close(); // stops the worker gracefully, then closes the connections
    }
}
