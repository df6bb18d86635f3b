package dev.baton.bootstrap.wiring;

import java.util.List;
import java.util.Objects;

/**
 * Ports given whole, instead of Redis and PostgreSQL opened from the configuration: Baton's tests give the in-memory
 * adapters this way ({@code Baton.builder().adapters(...)}). There is no outbox on them; {@code health} are the
 * checks behind {@code /health/ready}.
 */
public record Adapters(Transport transport, Ledger ledger, List<HealthCheck> health) {
    public Adapters {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(ledger, "ledger");
        health = List.copyOf(health);
    }

    public Adapters(Transport transport, Ledger ledger) {
        this(transport, ledger, List.of());
    }
}
