package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpExchange;
import dev.baton.bootstrap.admin.ThroughputSampler.Sample;
import dev.baton.bootstrap.json.JsonCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@code GET /api/events}: server-sent events, one per sample of the {@link ThroughputSampler} ({@code data:
 * {"at": ..., "queues": {"orders": {"completed": 2.0, "retried": 0.0, "dead": 0.0}}}}), the samples it holds first.
 * Each connection has a writer thread of its own, so a browser that stops reading blocks only its own writes: the
 * sampler hands each sample over without waiting, and a connection that falls {@link #BACKLOG} samples behind (a
 * minute of events) is ended, as is one whose write fails (the browser went away). At most {@link #STREAMS_PER_USER}
 * connections per user at once (the viewer, the operator, and without passwords everyone as one anonymous user), so
 * that a viewer's tabs cannot lock the operator out; one more is refused with 429.
 */
final class EventStream implements Routes.Handler {
    static final int BACKLOG = 60;
    static final int STREAMS_PER_USER = 8;

    private final ThroughputSampler sampler;
    private final Runnable startSampler;
    private final Map<String, Integer> streams = new HashMap<>(); // per user; guarded by this

    /** @param startSampler starts the sampler's schedule if it is not running yet (called on every connection) */
    EventStream(ThroughputSampler sampler, Runnable startSampler) {
        this.sampler = sampler;
        this.startSampler = startSampler;
    }

    @Override
    public void handle(AdminRequest request) throws IOException {
        String user = request.user().map(AdminAccess.User::label).orElse("anonymous");
        if (!open(user)) {
            throw new AdminHttpException(429, user + " already has " + STREAMS_PER_USER + " event streams open (one"
                    + " per overview tab); close one and reload");
        }
        HttpExchange exchange = request.exchange();
        try {
            startSampler.run();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.sendResponseHeaders(200, 0);
            new Client(exchange.getResponseBody(), () -> close(user), exchange::close).start(sampler);
        } catch (IOException | RuntimeException e) {
            close(user);
            throw e;
        }
    }

    private synchronized boolean open(String user) {
        int open = streams.getOrDefault(user, 0);
        if (open >= STREAMS_PER_USER) {
            return false;
        }
        streams.put(user, open + 1);
        return true;
    }

    private synchronized void close(String user) {
        streams.computeIfPresent(user, (name, open) -> open > 1 ? open - 1 : null);
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
        return JsonCodec.onClasspath().write(body);
    }
}
