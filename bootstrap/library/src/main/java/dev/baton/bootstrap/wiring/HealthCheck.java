package dev.baton.bootstrap.wiring;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/** One dependency that {@code /health/ready} checks (Redis, PostgreSQL). */
public record HealthCheck(String name, BooleanSupplier reachable) {
    public HealthCheck {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(reachable, "reachable");
    }

    /** False also when the check itself throws: a broken dependency must not break the health endpoint. */
    public boolean isUp() {
        try {
            return reachable.getAsBoolean();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
