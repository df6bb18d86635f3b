package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.Baton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Actuator's {@code /actuator/health} component {@code baton}: up while Redis and PostgreSQL (if used) answer; down
 * with a {@code reasons} detail saying, for each that does not, since when and why (never a password).
 */
final class BatonHealthIndicator implements HealthIndicator {
    private final Baton baton;

    BatonHealthIndicator(Baton baton) {
        this.baton = Objects.requireNonNull(baton, "baton");
    }

    @Override
    public Health health() {
        Map<String, Optional<String>> dependencies = baton.healthProblems();
        Map<String, String> reasons = new LinkedHashMap<>();
        dependencies.forEach((name, problem) -> problem.ifPresent(reason -> reasons.put(name, reason)));
        Health.Builder health = reasons.isEmpty() ? Health.up() : Health.down().withDetail("reasons", reasons);
        dependencies.forEach((name, problem) -> health.withDetail(name, problem.isEmpty() ? "UP" : "DOWN"));
        return health.build();
    }
}
