package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpExchange;
import dev.baton.application.port.in.RecordAuditEntryUseCase;
import dev.baton.application.service.LogText;
import dev.baton.bootstrap.config.AdminAddress;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.domain.InvalidValueException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP server: each request through {@link AdminAccess} (who may see and change what), then {@link Routes}
 * (the endpoint groups'). A refused or bad request answers {@code {"error": ...}} with its status and changes
 * nothing; a failure answers 500 with the configuration's redaction of its message, so that no password leaks, and
 * never a stack trace. Its transport is {@link HttpFront}: deadlines for slow clients, and the probes' paths on a pool
 * of their own. Endpoints: docs/OPERATIONS.md#the-admin-http-server.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

    private final HttpFront front;

    private AdminServer(HttpFront front) {
        this.front = front;
    }

    /**
     * Listens on {@code address} and serves {@code groups}' routes, guarded by the configured admin users; every
     * request to a change route is recorded in {@code audit} once answered.
     *
     * @param clock what the login throttle's locks and the audit entries are timed by
     */
    public static AdminServer start(AdminAddress address, BatonConfig config, Clock clock,
                                    List<Routes.Group> groups, RecordAuditEntryUseCase audit) {
        return start(address, config, clock, groups, audit, HttpFront.Limits.DEFAULTS);
    }

    static AdminServer start(AdminAddress address, BatonConfig config, Clock clock, List<Routes.Group> groups,
                             RecordAuditEntryUseCase audit, HttpFront.Limits limits) {
        AdminAccess access = new AdminAccess(config.adminUsers(), address, config.adminPublicOrigin(), clock);
        ChangeTrail trail = new ChangeTrail(audit, clock, config::redact);
        Routes routes = new Routes();
        access.addTo(routes);
        groups.forEach(group -> group.addTo(routes));
        HttpFront front;
        try {
            front = HttpFront.start(new InetSocketAddress(address.host(), address.port()), limits,
                    exchange -> serve(exchange, access, routes, trail, config), AdminAccess::isPublic);
        } catch (IOException e) {
            throw new AdminServerException("cannot listen on " + address + " (BATON_ADMIN_ADDRESS): " + e.getMessage()
                    + "; choose another address or 'off'", e);
        }
        LOG.info("admin http listening address={}:{} login={}", address.host(), front.address().getPort(),
                config.adminUsers().loginRequired() ? "required" : "none");
        return new AdminServer(front);
    }

    /** The bound address (the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return front.address();
    }

    /**
     * Answers the request; one to a change route, once past the login, then goes to the audit trail with its answer's
     * status, after the client has it, so that a slow or failing trail never holds or fails the change.
     */
    private static void serve(HttpExchange exchange, AdminAccess access, Routes routes, ChangeTrail trail,
                              BatonConfig config) throws IOException {
        String path = exchange.getRequestURI().getPath();
        SecurityHeaders.addTo(exchange.getResponseHeaders());
        Optional<Change> change = Optional.empty();
        try {
            Optional<AdminAccess.User> user = Optional.empty();
            if (!AdminAccess.isPublic(path)) {
                user = access.authenticate(new AdminRequest(exchange, List.of(), Optional.empty()));
            }
            Routes.Match match = routes.match(exchange.getRequestMethod(), path);
            AdminRequest request = new AdminRequest(exchange, match.params(), user);
            if (match.route().isChange()) {
                change = Optional.of(new Change(request, match.route()));
                access.authorizeChange(request, user);
            }
            match.route().handler().handle(request);
            if (match.route().isChange()) {
                access.changed(request, user);
            }
        } catch (AdminHttpException e) {
            refuse(exchange, e.status(), e.getMessage(), config);
        } catch (InvalidValueException | IllegalArgumentException e) {
            refuse(exchange, 400, e.getMessage(), config);
        } catch (RuntimeException e) {
            LOG.warn("admin request failed path={} error={}", LogText.escaped(path),
                    LogText.escaped(config.redact(e.toString())));
            refuse(exchange, 500, String.valueOf(e.getMessage()), config);
        }
        change.ifPresent(done -> trail.record(done.request(), done.route(), exchange.getResponseCode()));
    }

    /** A request to a change route, past the login. */
    private record Change(AdminRequest request, Routes.Route route) {
    }

    private static void refuse(HttpExchange exchange, int status, String message, BatonConfig config)
            throws IOException {
        if (status == 401) {
            exchange.getResponseHeaders().set("WWW-Authenticate", AdminAccess.CHALLENGE);
        }
        new AdminRequest(exchange, List.of(), Optional.empty()).fail(status, config.redact(message));
    }

    @Override
    public void close() {
        front.close();
    }
}
