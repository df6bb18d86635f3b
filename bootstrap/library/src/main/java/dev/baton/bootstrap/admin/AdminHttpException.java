package dev.baton.bootstrap.admin;

import dev.baton.domain.BatonException;

/**
 * A request the admin server refuses, with the status and the message it answers ({@code {"error": message}}):
 * nothing was changed. Messages name what was wrong with the request, never a password.
 */
public final class AdminHttpException extends BatonException {
    private final int status;

    public AdminHttpException(int status, String message) {
        super(message);
        this.status = status;
    }

    public static AdminHttpException badRequest(String message) {
        return new AdminHttpException(400, message);
    }

    public static AdminHttpException notFound(String message) {
        return new AdminHttpException(404, message);
    }

    public int status() {
        return status;
    }
}
