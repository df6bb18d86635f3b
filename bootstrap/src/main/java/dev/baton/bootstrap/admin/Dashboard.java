package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The browser side of the admin server: the pages ({@code /}, {@code /dashboard/*}, see {@link StaticFiles}) and the
 * live throughput ({@code /api/events}, see {@link EventStream}). The sampler behind the events starts with the first
 * connection, so a process nobody watches reads nothing; then it reads every queue's totals once a second.
 */
final class Dashboard implements AutoCloseable {
    /** One sample a second for 15 minutes. */
    static final int HISTORY = 15 * 60;
    static final int MAX_EVENT_CLIENTS = 16;
    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final ThroughputSampler sampler;
    private final ScheduledExecutorService schedule;
    private boolean started;

    Dashboard(ReadQueueTotalsUseCase totals, Supplier<List<QueueName>> queues, UnaryOperator<String> redact) {
        this.sampler = new ThroughputSampler(totals, queues, Clock.systemUTC(), HISTORY, redact);
        this.schedule = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-dashboard-sampler");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Serves the pages and events on {@code server}, each handler wrapped by {@code guard} (methods, login). */
    void register(HttpServer server, UnaryOperator<HttpHandler> guard) {
        server.createContext("/api/events", guard.apply(new EventStream(sampler, this::start, MAX_EVENT_CLIENTS)));
        HttpHandler files = guard.apply(new StaticFiles(Dashboard.class.getClassLoader()));
        server.createContext("/dashboard/", files);
        // "/" is the context of every path no other context takes: StaticFiles answers 404 for all but "/" itself
        server.createContext("/", files);
    }

    private synchronized void start() {
        if (!started) {
            started = true;
            schedule.scheduleAtFixedRate(sampler::runOnce, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        schedule.shutdownNow();
    }
}
