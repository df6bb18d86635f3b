package dev.baton.bootstrap.admin;

import dev.baton.application.service.LogText;
import dev.baton.bootstrap.config.AdminAddress;
import dev.baton.bootstrap.config.AdminUsers;
import dev.baton.bootstrap.config.Setting;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may do what on the admin server (docs/OPERATIONS.md#security). {@code /health/*} and {@code /metrics} are open to
 * all. Every other path needs a {@code Host} of {@link AllowedHosts}. Once a password is set ({@link AdminUsers}), it
 * needs HTTP Basic credentials ({@link Logins}) of {@code viewer} (reads) or {@code operator} (reads and changes).
 * Without passwords there is no operator: reads only, and on a non-loopback address nothing but health and metrics. A
 * change is a {@code POST} from the operator, with {@code Content-Type: application/json} (which a cross-site form
 * cannot send without a CORS preflight, never granted here) and an {@code Origin}, when the browser sends one, of the
 * request's own host or the public origin; each is logged with its user and client. Signing out marks the browser
 * with a cookie: its next request is refused with a challenge, so that the browser forgets the password it keeps and
 * asks for it again.
 */
public final class AdminAccess implements Routes.Group {
    private static final Logger LOG = LoggerFactory.getLogger(AdminAccess.class);
    static final String CHALLENGE = "Basic realm=\"baton\", charset=\"UTF-8\"";
    static final String SIGNED_OUT = "baton_signed_out";
    private static final String COOKIE_ATTRIBUTES = "; Path=/; HttpOnly; SameSite=Strict";

    /** The admin server's users. */
    public enum User {
        VIEWER, OPERATOR;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final AdminUsers users;
    private final boolean loopback;
    private final AllowedHosts hosts;
    private final Optional<String> publicOrigin;
    private final Logins logins;

    /** @param publicOrigin where a reverse proxy serves this server ({@code https://baton.example.com}), if at all */
    public AdminAccess(AdminUsers users, AdminAddress address, Optional<String> publicOrigin, Clock clock) {
        this.users = users;
        this.loopback = isLoopback(address.host());
        this.hosts = new AllowedHosts(address, publicOrigin);
        this.publicOrigin = publicOrigin;
        this.logins = new Logins(users, clock);
        if (!users.loginRequired() && !loopback) {
            LOG.warn("admin http on the non-loopback address {} without passwords: only /health/* and /metrics are"
                    + " served there, since anyone who reaches it could read the queues; set {} (and {} to change"
                    + " them) or use a loopback address", address, Setting.ADMIN_VIEWER_PASSWORD.envName(),
                    Setting.ADMIN_OPERATOR_PASSWORD.envName());
        } else if (users.operatorPassword().isEmpty()) {
            LOG.info("admin http is read-only: no operator password ({}) is set",
                    Setting.ADMIN_OPERATOR_PASSWORD.envName());
        }
    }

    /**
     * {@code GET /api/whoami}: the user logged in (null without passwords) and whether they may change things.
     * {@code POST /api/signout}: this browser is asked for a password again; any user, from this server's pages.
     */
    @Override
    public void addTo(Routes routes) {
        routes.get("/api/whoami", request -> {
            Optional<User> user = authenticate(request);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("user", user.map(User::label).orElse(null));
            body.put("can_change", user.filter(u -> u == User.OPERATOR).isPresent());
            request.respond(200, body);
        });
        routes.postForAnyUser("/api/signout", request -> {
            User user = authenticate(request).orElseThrow(() -> AdminHttpException.badRequest("nothing to sign out"
                    + " of: the admin server has no passwords"));
            sameSiteJson(request, Optional.of(user));
            request.exchange().getResponseHeaders().add("Set-Cookie", SIGNED_OUT + "=1" + COOKIE_ATTRIBUTES);
            LOG.info("admin sign-out user={} client={}", user.label(), request.client());
            request.respond(200, Map.of("signed_out", user.label()));
        });
    }

    static boolean isPublic(String path) {
        return path.startsWith("/health/") || path.equals("/metrics");
    }

    /**
     * The user a request to a non-public path comes from: empty without passwords.
     *
     * @throws AdminHttpException 403 for a foreign {@code Host} or on a non-loopback address without passwords, 401
     *                            without valid credentials or from a browser signed out, 429 while locked out
     */
    Optional<User> authenticate(AdminRequest request) {
        hosts.check(request.header("Host"));
        if (!users.loginRequired()) {
            if (!loopback) {
                throw new AdminHttpException(403, "without passwords the admin server serves only /health/* and"
                        + " /metrics on a non-loopback address; set " + Setting.ADMIN_VIEWER_PASSWORD.envName()
                        + " or " + Setting.ADMIN_OPERATOR_PASSWORD.envName());
            }
            return Optional.empty();
        }
        if (signedOut(request)) {
            // the challenge makes the browser drop the password it keeps; the mark goes, so the next one counts
            request.exchange().getResponseHeaders().add("Set-Cookie", SIGNED_OUT + "=" + COOKIE_ATTRIBUTES
                    + "; Max-Age=0");
            throw new AdminHttpException(401, "signed out: log in again");
        }
        return Optional.of(logins.login(request));
    }

    /**
     * Lets a change through only from the operator, from this host's pages, as JSON.
     *
     * @throws AdminHttpException 403 for anyone but the operator or a cross-site request, 415 for a body not JSON
     */
    void authorizeChange(AdminRequest request, Optional<User> user) {
        if (user.isEmpty() || user.get() != User.OPERATOR) {
            throw refusedChange(request, user, new AdminHttpException(403, users.operatorPassword().isEmpty()
                    ? "no operator is configured: the admin server is read-only (set "
                    + Setting.ADMIN_OPERATOR_PASSWORD.envName() + ", or use the baton CLI)"
                    : "the viewer may not change anything: log in as operator"));
        }
        sameSiteJson(request, user);
    }

    /** Logs a change done: who did it, from where, and how it was answered. */
    void changed(AdminRequest request, Optional<User> user) {
        LOG.info("admin change user={} client={} request={} {} status={}", user.map(User::label).orElse("(none)"),
                request.client(), request.method(), LogText.escaped(request.path()),
                request.exchange().getResponseCode());
    }

    /**
     * Lets a {@code POST} through only from this server's pages (or the public origin's), as JSON.
     *
     * @throws AdminHttpException 403 for a cross-site request, 415 for a body not JSON
     */
    private void sameSiteJson(AdminRequest request, Optional<User> user) {
        Optional<String> origin = request.header("Origin");
        if (origin.isPresent() && !sameHost(origin.get(), request.header("Host"))
                && !origin.get().equalsIgnoreCase(publicOrigin.orElse(""))) {
            throw refusedChange(request, user, new AdminHttpException(403, "cross-site request refused: Origin "
                    + origin.get() + " is not this server"));
        }
        String contentType = request.header("Content-Type").orElse("");
        if (!contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new AdminHttpException(415, "send Content-Type: application/json");
        }
    }

    private static AdminHttpException refusedChange(AdminRequest request, Optional<User> user,
                                                    AdminHttpException refusal) {
        LOG.warn("admin change refused user={} client={} request={} {}: {}", user.map(User::label).orElse("(none)"),
                request.client(), request.method(), LogText.escaped(request.path()),
                LogText.escaped(refusal.getMessage()));
        return refusal;
    }

    private static boolean signedOut(AdminRequest request) {
        return request.header("Cookie").stream().flatMap(cookies -> Arrays.stream(cookies.split(";")))
                .anyMatch(cookie -> cookie.trim().startsWith(SIGNED_OUT + "="));
    }

    private static boolean sameHost(String origin, Optional<String> host) {
        try {
            URI uri = new URI(origin);
            if (uri.getHost() == null || host.isEmpty()) {
                return false;
            }
            String authority = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            return authority.equalsIgnoreCase(host.get().trim());
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
