package dev.baton.bootstrap.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.baton.bootstrap.admin.ThroughputSampler.Sample;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * {@code GET /api/events}: server-sent events, one per sample of the {@link ThroughputSampler} ({@code data:
 * {"at": ..., "queues": {"orders": {"completed": 2.0, "retried": 0.0, "dead": 0.0}}}}), the samples it holds first.
 * A connection holds no thread: the handler returns once the history is written, and the sampler's thread writes
 * each new event; a write that fails (the browser went away) ends the connection. At most {@code maxClients}
 * connections at once; one more is refused with 503.
 */
final class EventStream implements Routes.Handler {
    private static final ObjectMapper COMPACT = new ObjectMapper();

    private final ThroughputSampler sampler;
    private final Runnable startSampler;
    private final Semaphore slots;

    /** @param startSampler starts the sampler's schedule if it is not running yet (called on every connection) */
    EventStream(ThroughputSampler sampler, Runnable startSampler, int maxClients) {
        this.sampler = sampler;
        this.startSampler = startSampler;
        this.slots = new Semaphore(maxClients);
    }

    @Override
    public void handle(AdminRequest request) throws IOException {
        if (!slots.tryAcquire()) {
            throw new AdminHttpException(503, "too many dashboard connections; close another tab and reload");
        }
        HttpExchange exchange = request.exchange();
        startSampler.run();
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(200, 0);
        Client client = new Client(exchange);
        // the history goes out before any new event: the client's lock is held until it is written
        synchronized (client) {
            List<Sample> history = sampler.subscribe(client);
            client.write(history);
        }
    }

    /** One open connection; ends itself when a write fails. */
    private final class Client implements Consumer<Sample> {
        private final HttpExchange exchange;
        private boolean open = true;

        Client(HttpExchange exchange) {
            this.exchange = exchange;
        }

        @Override
        public synchronized void accept(Sample sample) {
            write(List.of(sample));
        }

        synchronized void write(List<Sample> samples) {
            if (!open) {
                return;
            }
            try {
                OutputStream out = exchange.getResponseBody();
                for (Sample sample : samples) {
                    out.write(("data: " + json(sample) + "\n\n").getBytes(StandardCharsets.UTF_8));
                }
                out.flush();
            } catch (IOException e) {
                end();
            }
        }

        private void end() {
            open = false;
            sampler.unsubscribe(this);
            exchange.close();
            slots.release();
        }
    }

    static String json(Sample sample) {
        Map<String, Object> queues = new LinkedHashMap<>();
        sample.queues().entrySet().stream().sorted(Map.Entry.comparingByKey((a, b) -> a.value().compareTo(b.value())))
                .forEach(entry -> queues.put(entry.getKey().value(), Map.of("completed", entry.getValue().completed(),
                        "retried", entry.getValue().retried(), "dead", entry.getValue().dead())));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("at", sample.at().toString());
        body.put("queues", queues);
        try {
            return COMPACT.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
