package dev.baton.bootstrap.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The admin server's users ({@code BATON_ADMIN_VIEWER_PASSWORD}, {@code BATON_ADMIN_OPERATOR_PASSWORD}): with no
 * password set there is no login and no operator. {@link #toString()} never shows a password.
 *
 * @param viewerPassword   the password of {@code viewer}, who reads everything and changes nothing
 * @param operatorPassword the password of {@code operator}, who may change too
 */
public record AdminUsers(Optional<String> viewerPassword, Optional<String> operatorPassword) {
    public static final AdminUsers NONE = new AdminUsers(Optional.empty(), Optional.empty());

    public AdminUsers {
        viewerPassword = Objects.requireNonNull(viewerPassword, "viewer password").filter(p -> !p.isEmpty());
        operatorPassword = Objects.requireNonNull(operatorPassword, "operator password").filter(p -> !p.isEmpty());
    }

    /** An empty text is no password. */
    static AdminUsers of(String viewerPassword, String operatorPassword) {
        return new AdminUsers(Optional.of(viewerPassword), Optional.of(operatorPassword));
    }

    /** Whether any password is set, so that everything but health and metrics needs a login. */
    public boolean loginRequired() {
        return viewerPassword.isPresent() || operatorPassword.isPresent();
    }

    @Override
    public String toString() {
        return "AdminUsers[viewer=" + (viewerPassword.isPresent() ? Secrets.MASK : "none") + ", operator="
                + (operatorPassword.isPresent() ? Secrets.MASK : "none") + "]";
    }
}
