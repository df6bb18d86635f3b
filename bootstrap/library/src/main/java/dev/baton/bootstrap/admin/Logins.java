package dev.baton.bootstrap.admin;

import dev.baton.application.service.LogText;
import dev.baton.bootstrap.admin.AdminAccess.User;
import dev.baton.bootstrap.config.AdminUsers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP Basic logins of {@code viewer} and {@code operator}. Passwords are compared in constant time, through their
 * digests, and never written anywhere. Each failed login is a WARN line with the user name and the client's address,
 * and counts towards a lock-out of that user from that client ({@link LoginThrottle}), answered {@code 429}.
 */
final class Logins {
    private static final Logger LOG = LoggerFactory.getLogger(Logins.class);
    /** The longest user name an answer or a log line shows. */
    private static final int SHOWN_NAME = 64;

    private final Optional<byte[]> viewerDigest;
    private final Optional<byte[]> operatorDigest;
    private final LoginThrottle throttle;

    Logins(AdminUsers users, Clock clock) {
        this.viewerDigest = users.viewerPassword().map(Logins::digest);
        this.operatorDigest = users.operatorPassword().map(Logins::digest);
        this.throttle = new LoginThrottle(clock);
    }

    /**
     * The user whose credentials the request carries.
     *
     * @throws AdminHttpException 401 without valid credentials, 429 while the user is locked out for this client
     */
    User login(AdminRequest request) {
        Optional<String> authorization = request.header("Authorization");
        if (authorization.isEmpty()) {
            throw new AdminHttpException(401, "log in as viewer or operator");
        }
        Credentials given = Credentials.of(authorization.get());
        LoginThrottle.Key key = new LoginThrottle.Key(given.counted(), request.client());
        Optional<Duration> locked = throttle.lockedFor(key);
        if (locked.isPresent()) {
            long seconds = (locked.get().toMillis() + 999) / 1000;
            request.exchange().getResponseHeaders().set("Retry-After", Long.toString(seconds));
            throw new AdminHttpException(429, "too many failed logins of " + given.shown() + " from "
                    + request.client() + ": try again in " + seconds + " s");
        }
        Optional<User> user = user(given);
        if (user.isEmpty()) {
            LoginThrottle.Failures failures = throttle.failed(key);
            LOG.warn("admin login failed user={} client={} failures={}{}", LogText.escaped(given.shown()),
                    request.client(), failures.count(), failures.lockedUntil().map(until -> " locked until " + until)
                            .orElse(""));
            throw new AdminHttpException(401, "log in as viewer or operator");
        }
        throttle.succeeded(key);
        return user.get();
    }

    private Optional<User> user(Credentials given) {
        String name = given.name().orElse("");
        // both compared, whoever logs in, so that the time taken tells nothing
        boolean viewer = matches(viewerDigest, given.passwordDigest()) && name.equals("viewer");
        boolean operator = matches(operatorDigest, given.passwordDigest()) && name.equals("operator");
        return operator ? Optional.of(User.OPERATOR) : viewer ? Optional.of(User.VIEWER) : Optional.empty();
    }

    private static boolean matches(Optional<byte[]> expected, byte[] given) {
        return MessageDigest.isEqual(expected.orElse(new byte[given.length]), given) && expected.isPresent();
    }

    private static byte[] digest(String password) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** What an {@code Authorization} header gives: a user name and the password's digest; no name unless Basic. */
    private record Credentials(Optional<String> name, byte[] passwordDigest) {
        static Credentials of(String authorization) {
            Credentials none = new Credentials(Optional.empty(), digest(""));
            if (!authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
                return none;
            }
            String credentials;
            try {
                credentials = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                        StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return none;
            }
            int colon = credentials.indexOf(':');
            return colon < 0 ? none : new Credentials(Optional.of(credentials.substring(0, colon)),
                    digest(credentials.substring(colon + 1)));
        }

        /** The name as the throttle counts it: a user's, else one count for every other name. */
        String counted() {
            return name.filter(given -> given.equals("viewer") || given.equals("operator")).orElse("(other)");
        }

        /** The name as an answer or a log line shows it: cut, not yet escaped. */
        String shown() {
            String given = name.orElse("(no Basic credentials)");
            return given.length() <= SHOWN_NAME ? given : given.substring(0, SHOWN_NAME) + "…";
        }
    }
}
