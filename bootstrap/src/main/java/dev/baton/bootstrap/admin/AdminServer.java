package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.InspectQueueUseCase.QueueReport;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.bootstrap.config.AdminAddress;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.json.Json;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.bootstrap.wiring.HealthCheck;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP endpoints on the JDK's HTTP server: {@code /health/live}, {@code /health/ready} (503 unless Redis
 * and PostgreSQL answer), {@code /metrics} (Prometheus text) and {@code /api/queues} (JSON), all read with GET; and
 * the one change, {@code POST /api/queues/{queue}/pause|resume} ({@link PauseEndpoint}), served on a loopback address
 * only. Error texts go through the
 * configuration's redaction, so no password leaks.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    private static final List<String> READ = List.of("GET", "HEAD");

    private final HttpServer server;
    private final ExecutorService executor;
    private final Dashboard dashboard;

    private AdminServer(HttpServer server, ExecutorService executor, Dashboard dashboard) {
        this.server = server;
        this.executor = executor;
        this.dashboard = dashboard;
    }

    public static AdminServer start(AdminAddress address, BatonConfig config, Set<HealthCheck> checks,
                                    PrometheusMeterRegistry registry, InspectQueueUseCase inspect,
                                    KnownQueues queues, PauseEndpoint pauses, ReadQueueTotalsUseCase totals) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(address.host(), address.port()), 0);
        } catch (IOException e) {
            throw new AdminServerException("cannot listen on " + address + " (BATON_ADMIN_ADDRESS): " + e.getMessage()
                    + "; choose another address or 'off'", e);
        }
        server.createContext("/health/live", exchange -> respond(exchange, 200, "text/plain", "live\n"));
        server.createContext("/health/ready", guarded(config, READ, exchange -> ready(exchange, checks)));
        server.createContext("/metrics", guarded(config, READ, exchange ->
                respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape())));
        server.createContext("/api/queues/", guarded(config, List.of("POST"), changes(address, pauses)));
        server.createContext("/api/queues", guarded(config, READ, exchange -> {
            List<QueueReport> reports = queues.all().stream()
                    .map(queue -> inspect.inspect(new InspectQueueUseCase.Command(queue))).toList();
            respond(exchange, 200, "application/json", Json.write(Json.queues(reports)));
        }));
        Dashboard dashboard = new Dashboard(totals, queues::all, config::redact);
        dashboard.register(server, handler -> guarded(config, READ, handler));
        ExecutorService executor = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "baton-admin-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.start();
        LOG.info("admin http listening address={}:{}", address.host(), server.getAddress().getPort());
        return new AdminServer(server, executor, dashboard);
    }

    /** The bound address (the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private static void ready(HttpExchange exchange, Set<HealthCheck> checks) throws IOException {
        Map<String, String> status = new LinkedHashMap<>();
        boolean up = true;
        for (HealthCheck check : checks) {
            boolean checkUp = check.isUp();
            status.put(check.name(), checkUp ? "up" : "down");
            up &= checkUp;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", up ? "up" : "down");
        body.put("checks", status);
        respond(exchange, up ? 200 : 503, "application/json", Json.write(body));
    }

    /** Answers with {@code handler} for {@code methods}, 405 for others, 500 with a redacted text if it fails. */
    /**
     * The admin server has no users yet, so a change is served only where nobody but this machine's own processes can
     * reach it: on a loopback address. Elsewhere every change is refused with 403 and a warning says why at start.
     */
    private static HttpHandler changes(AdminAddress address, PauseEndpoint pauses) {
        if (isLoopback(address.host())) {
            return pauses::handle;
        }
        LOG.warn("admin http on the non-loopback address {}: pause and resume are refused there (403), since the"
                + " admin server has no operator login; use a loopback address or `baton queue pause|resume`", address);
        return exchange -> respond(exchange, 403, "text/plain", "changes are served only on a loopback admin"
                + " address; use `baton queue pause|resume`\n");
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static HttpHandler guarded(BatonConfig config, List<String> methods, HttpHandler handler) {
        return exchange -> {
            try {
                if (!methods.contains(exchange.getRequestMethod())) {
                    respond(exchange, 405, "text/plain", "only " + String.join(" or ", methods) + "\n");
                    return;
                }
                handler.handle(exchange);
            } catch (RuntimeException e) {
                LOG.warn("admin request failed path={} error={}", exchange.getRequestURI().getPath(),
                        config.redact(e.toString()));
                respond(exchange, 500, "application/json",
                        Json.write(Map.of("error", String.valueOf(config.redact(e.getMessage())))));
            }
        };
    }

    static void respond(HttpExchange exchange, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        dashboard.close();
        server.stop(0);
        executor.shutdownNow();
    }
}
