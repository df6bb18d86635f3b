package dev.baton.bootstrap.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.handler.NonRetryableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Optional;

/**
 * Demo: ships an order. Payload {@code {"orderId": "…", "failTimes": k, "poison": bool, "sleepMs": n}}.
 *
 * <p>Inserts one row into {@code demo_shipments}, which deliberately has no unique constraint: a job whose effect ran
 * twice would show up as two rows. The row is written first and the transient failure thrown after, so a failed
 * attempt also shows that its write was rolled back with it.
 */
public final class OrdersHandler implements NamedJobHandler {
    public static final String NAME = "orders";
    /** The table of its effects, a row per shipment with the job's id. */
    public static final String SHIPMENTS = "demo_shipments";
    /** The exit status of a worker that a poison order crashed. */
    public static final int CRASH_STATUS = 86;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INSERT = "insert into " + SHIPMENTS
            + " (order_id, job_id, shipped_at) values (?, ?, now())";

    private final boolean crashOnPoison;

    /** For {@code ServiceLoader}: poison orders fail without crashing. */
    public OrdersHandler() {
        this(false);
    }

    /** @param crashOnPoison a poison order halts the whole process (to demonstrate poison detection) */
    public OrdersHandler(boolean crashOnPoison) {
        this.crashOnPoison = crashOnPoison;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> handle(JobContext context) throws Exception {
        Order order = Order.parse(context.job().payload());
        if (order.poison()) {
            if (crashOnPoison) {
                Runtime.getRuntime().halt(CRASH_STATUS);
            }
            throw new NonRetryableException("poison order " + order.orderId());
        }
        if (order.sleepMs() > 0) {
            Thread.sleep(order.sleepMs());
        }
        // plain JDBC on the job's connection: the driver keeps the statement prepared on it, so a job costs the
        // insert's round trip and little else (Jdbi's createUpdate, as handlers may use it, costs more CPU per job)
        try (PreparedStatement insert = context.unwrap(Connection.class).prepareStatement(INSERT)) {
            insert.setString(1, order.orderId());
            insert.setString(2, context.job().id().value());
            insert.executeUpdate();
        }
        if (context.attempt() <= order.failTimes()) {
            throw new IllegalStateException("carrier unavailable for " + order.orderId() + " (attempt "
                    + context.attempt() + " of " + order.failTimes() + " planned failures)");
        }
        return Optional.of("shipped " + order.orderId());
    }

    /** The demo order as the payload describes it. */
    record Order(String orderId, int failTimes, boolean poison, long sleepMs) {
        static Order parse(String payload) {
            JsonNode json;
            try {
                json = JSON.readTree(payload);
            } catch (JsonProcessingException e) {
                throw new NonRetryableException("payload is not JSON: " + e.getOriginalMessage());
            }
            if (json == null || !json.isObject() || !json.path("orderId").isTextual()) {
                throw new NonRetryableException("payload is not an order: it needs a text orderId");
            }
            return new Order(json.get("orderId").asText(), json.path("failTimes").asInt(0),
                    json.path("poison").asBoolean(false), json.path("sleepMs").asLong(0));
        }
    }
}
