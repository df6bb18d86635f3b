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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@code GET /api/events}: server-sent events, one per sample of the {@link ThroughputSampler} ({@code data:
 * {"at": ..., "queues": {"orders": {"completed": 2.0, "retried": 0.0, "dead": 0.0}}}}), the samples it holds first.
 * Each connection has a writer thread of its own, so a browser that stops reading blocks only its own writes: the
 * sampler hands each sample over without waiting, and a connection that falls {@link #BACKLOG} samples behind (a
 * minute of events) is ended, as is one whose write fails (the browser went away). At most {@code maxClients}
 * connections at once; one more is refused with 503.
 */
final class EventStream implements Routes.Handler {
    static final int BACKLOG = 60;
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
        new Client(exchange.getResponseBody(), slots::release, exchange::close).start(sampler);
    }

    /**
     * One open connection: a bounded queue of events and the thread that writes them. Ending it frees its place at
     * once; the connection itself is closed by its writer thread, after a write that may still hang on a browser
     * that stopped reading, so that nothing else ever waits for that browser.
     */
    static final class Client implements Consumer<Sample> {
        private final OutputStream out;
        private final Runnable release;
        private final Runnable close;
        private final BlockingQueue<List<Sample>> queued = new ArrayBlockingQueue<>(BACKLOG);
        private final AtomicBoolean ended = new AtomicBoolean();
        private final Thread writer = new Thread(this::writeUntilEnded, "baton-dashboard-events");
        private ThroughputSampler sampler;

        Client(OutputStream out, Runnable release, Runnable close) {
            this.out = out;
            this.release = release;
            this.close = close;
            writer.setDaemon(true);
        }

        /**
         * Subscribes and queues the samples held before any new one: the sampler's lock keeps a sample from being
         * taken meanwhile.
         */
        void start(ThroughputSampler source) {
            synchronized (source) {
                this.sampler = source;
                queued.add(source.subscribe(this));
            }
            writer.start();
        }

        /** Called by the sampler's thread: never waits. */
        @Override
        public void accept(Sample sample) {
            if (!queued.offer(List.of(sample))) {
                end();
            }
        }

        boolean isEnded() {
            return ended.get();
        }

        private void writeUntilEnded() {
            try {
                while (!ended.get()) {
                    for (Sample sample : queued.take()) {
                        out.write(("data: " + json(sample) + "\n\n").getBytes(StandardCharsets.UTF_8));
                    }
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                end();
            } finally {
                close.run();
            }
        }

        void end() {
            if (ended.compareAndSet(false, true)) {
                sampler.unsubscribe(this);
                release.run();
                writer.interrupt();
            }
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
