package dev.baton.bootstrap.admin;

import dev.baton.bootstrap.config.AdminAddress;
import dev.baton.bootstrap.config.AdminUsers;
import dev.baton.bootstrap.config.Setting;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may do what on the admin server (docs/OPERATIONS.md#security). {@code /health/*} and {@code /metrics} are open to
 * all. Once a password is set ({@link AdminUsers}), everything else needs HTTP Basic credentials of {@code viewer}
 * (reads) or {@code operator} (reads and changes). Without passwords there is no operator: reads only, and on a
 * non-loopback address nothing but health and metrics. A change is a {@code POST} from the operator, with
 * {@code Content-Type: application/json} (which a cross-site form cannot send without a CORS preflight, never granted
 * here) and an {@code Origin}, when the browser sends one, of the request's own host. Passwords are compared in
 * constant time, through their digests, and never written anywhere.
 */
public final class AdminAccess implements Routes.Group {
    private static final Logger LOG = LoggerFactory.getLogger(AdminAccess.class);
    static final String CHALLENGE = "Basic realm=\"baton\", charset=\"UTF-8\"";

    /** The admin server's users. */
    public enum User {
        VIEWER, OPERATOR;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final AdminUsers users;
    private final boolean loopback;
    private final Optional<byte[]> viewerDigest;
    private final Optional<byte[]> operatorDigest;

    public AdminAccess(AdminUsers users, AdminAddress address) {
        this.users = users;
        this.loopback = isLoopback(address.host());
        this.viewerDigest = users.viewerPassword().map(AdminAccess::digest);
        this.operatorDigest = users.operatorPassword().map(AdminAccess::digest);
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

    /** {@code GET /api/whoami}: the user logged in (null without passwords) and whether they may change things. */
    @Override
    public void addTo(Routes routes) {
        routes.get("/api/whoami", request -> {
            Optional<User> user = authenticate(request);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("user", user.map(User::label).orElse(null));
            body.put("can_change", user.filter(u -> u == User.OPERATOR).isPresent());
            request.respond(200, body);
        });
    }

    static boolean isPublic(String path) {
        return path.startsWith("/health/") || path.equals("/metrics");
    }

    /**
     * The user a request to a non-public path comes from: empty without passwords.
     *
     * @throws AdminHttpException 401 without valid credentials, 403 on a non-loopback address without passwords
     */
    Optional<User> authenticate(AdminRequest request) {
        if (!users.loginRequired()) {
            if (!loopback) {
                throw new AdminHttpException(403, "without passwords the admin server serves only /health/* and"
                        + " /metrics on a non-loopback address; set " + Setting.ADMIN_VIEWER_PASSWORD.envName()
                        + " or " + Setting.ADMIN_OPERATOR_PASSWORD.envName());
            }
            return Optional.empty();
        }
        Optional<User> user = request.header("Authorization").flatMap(this::user);
        if (user.isEmpty()) {
            throw new AdminHttpException(401, "log in as viewer or operator");
        }
        return user;
    }

    /**
     * Lets a change through only from the operator, from this host's pages, as JSON.
     *
     * @throws AdminHttpException 403 for anyone but the operator or a cross-site request, 415 for a body not JSON
     */
    void authorizeChange(AdminRequest request, Optional<User> user) {
        if (user.isEmpty() || user.get() != User.OPERATOR) {
            throw new AdminHttpException(403, users.operatorPassword().isEmpty()
                    ? "no operator is configured: the admin server is read-only (set "
                    + Setting.ADMIN_OPERATOR_PASSWORD.envName() + ", or use the baton CLI)"
                    : "the viewer may not change anything: log in as operator");
        }
        Optional<String> origin = request.header("Origin");
        if (origin.isPresent() && !sameHost(origin.get(), request.header("Host"))) {
            throw new AdminHttpException(403, "cross-site request refused: Origin " + origin.get()
                    + " is not this server");
        }
        String contentType = request.header("Content-Type").orElse("");
        if (!contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new AdminHttpException(415, "send Content-Type: application/json");
        }
    }

    private Optional<User> user(String authorization) {
        if (!authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String credentials;
        try {
            credentials = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = credentials.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String name = credentials.substring(0, colon);
        byte[] given = digest(credentials.substring(colon + 1));
        // both compared, whoever logs in, so that the time taken tells nothing
        boolean viewer = matches(viewerDigest, given) && name.equals("viewer");
        boolean operator = matches(operatorDigest, given) && name.equals("operator");
        return operator ? Optional.of(User.OPERATOR) : viewer ? Optional.of(User.VIEWER) : Optional.empty();
    }

    private static boolean matches(Optional<byte[]> expected, byte[] given) {
        return MessageDigest.isEqual(expected.orElse(new byte[given.length]), given) && expected.isPresent();
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

    private static byte[] digest(String password) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
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
