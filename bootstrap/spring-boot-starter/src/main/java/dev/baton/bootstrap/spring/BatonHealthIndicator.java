package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.Baton;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** Actuator's {@code /actuator/health} component {@code baton}: up while Redis and PostgreSQL (if used) answer. */
final class BatonHealthIndicator implements HealthIndicator {
    private final Baton baton;

    BatonHealthIndicator(Baton baton) {
        this.baton = Objects.requireNonNull(baton, "baton");
    }

    @Override
    public Health health() {
        Map<String, Boolean> dependencies = baton.health();
        Health.Builder health = dependencies.containsValue(false) ? Health.down() : Health.up();
        dependencies.forEach((name, up) -> health.withDetail(name, up ? "UP" : "DOWN"));
        return health.build();
    }
}
