package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.Headers;

/**
 * The headers every admin answer carries, whatever its status: no other site may frame a page (clickjacking the
 * operator's buttons: {@code frame-ancestors 'none'}, and {@code X-Frame-Options} for older browsers) and no link sends
 * the dashboard's address on ({@code Referrer-Policy}). A handler that sends a policy of its own adds it with
 * {@link #addPolicy}, which keeps the directives already there.
 */
final class SecurityHeaders {
    static final String CONTENT_SECURITY_POLICY = "Content-Security-Policy";

    private SecurityHeaders() {
    }

    static void addTo(Headers headers) {
        addPolicy(headers, "frame-ancestors 'none'");
        headers.set("X-Frame-Options", "DENY");
        headers.set("Referrer-Policy", "no-referrer");
    }

    /** Adds {@code directives} to the answer's content security policy, after those it has. */
    static void addPolicy(Headers headers, String directives) {
        String sent = headers.getFirst(CONTENT_SECURITY_POLICY);
        headers.set(CONTENT_SECURITY_POLICY, sent == null || sent.isBlank() ? directives : sent + "; " + directives);
    }
}
