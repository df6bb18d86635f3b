package dev.baton.bootstrap.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.handler.NonRetryableException;
import java.io.IOException;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Ships an order: one row in the shop's own table, committed together with the job's completion record. */
public final class ShipOrderHandler implements NamedJobHandler {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return "shop-orders"; // a worker runs it for queue "shop-orders", or for jobs of type "shop-orders"
    }

    @Override
    public Optional<String> handle(JobContext context) throws IOException {
        JsonNode order = JSON.readTree(context.job().payload());
        if (!order.hasNonNull("orderId")) {
            // trying again cannot help: the job goes straight to the dead letters
            throw new NonRetryableException("an order needs an orderId");
        }
        String carrier = order.path("express").asBoolean() ? "courier" : "post";
        // the ledger's open transaction: this insert commits with the completion record, or not at all
        Handle handle = context.unwrap(Handle.class);
        handle.createUpdate("INSERT INTO shop_shipments (order_id, job_id, carrier) VALUES (:order, :job, :carrier)")
                .bind("order", order.get("orderId").asText())
                .bind("job", context.job().id().value())
                .bind("carrier", carrier)
                .execute();
        // any other exception (a timeout of the carrier's API, say) is retried with backoff
        return Optional.of("shipped by " + carrier);
    }
}
