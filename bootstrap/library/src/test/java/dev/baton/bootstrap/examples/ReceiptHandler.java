package dev.baton.bootstrap.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.handler.NonRetryableException;
import java.io.IOException;
import java.util.Optional;

/** Mails an order's receipt: an effect outside the ledger, so the job id goes along as an idempotency key. */
public final class ReceiptHandler implements NamedJobHandler {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The shop's mail gateway; it sends a message once per idempotency key. */
    public interface Mailer {
        void send(String idempotencyKey, String to, String text) throws IOException;
    }

    private final Mailer mailer;

    public ReceiptHandler(Mailer mailer) {
        this.mailer = mailer;
    }

    @Override
    public String name() {
        return "shop-receipts";
    }

    @Override
    public Optional<String> handle(JobContext context) throws IOException {
        JsonNode receipt = JSON.readTree(context.job().payload());
        if (!receipt.hasNonNull("email")) {
            throw new NonRetryableException("a receipt needs an email");
        }
        String to = receipt.get("email").asText();
        // an IOException (the gateway is down) is retried with backoff
        mailer.send(context.job().id().value(), to, "Thank you for order " + receipt.path("orderId").asText());
        return Optional.of("mailed to " + to);
    }
}
