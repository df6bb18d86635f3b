package dev.baton.bootstrap.config;

import java.util.Objects;

/** Where the admin HTTP server listens; port 0 picks a free port. */
public record AdminAddress(String host, int port) {
    public AdminAddress {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
