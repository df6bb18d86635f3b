package dev.baton.bootstrap.wiring;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One dependency that {@code /health/ready} checks (Redis, PostgreSQL): up, or down with the reason its adapter gives
 * (since when it has not answered, and its last error), never with a password.
 */
public record HealthCheck(String name, Supplier<Optional<String>> whyDown) {
    public HealthCheck {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(whyDown, "why down");
    }

    /** A check that answers up or down, without a reason. */
    public HealthCheck(String name, BooleanSupplier reachable) {
        this(name, () -> reachable.getAsBoolean() ? Optional.empty() : Optional.of("does not answer"));
    }

    /**
     * Why the dependency is down now; empty when it is up. A check that throws (an adapter that could not be opened)
     * is down with what it threw: a broken dependency must not break the health endpoint.
     */
    public Optional<String> problem() {
        try {
            return whyDown.get();
        } catch (RuntimeException e) {
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

    public boolean isUp() {
        return problem().isEmpty();
    }
}
