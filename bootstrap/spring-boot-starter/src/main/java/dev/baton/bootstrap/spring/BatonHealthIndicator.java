package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.Baton;
import java.util.Objects;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** Spring Boot 3.5's {@code /actuator/health} component {@code baton} ({@link HealthReport}). */
final class BatonHealthIndicator implements HealthIndicator {
    private final Baton baton;

    BatonHealthIndicator(Baton baton) {
        this.baton = Objects.requireNonNull(baton, "baton");
    }

    @Override
    public Health health() {
        HealthReport report = HealthReport.of(baton);
        return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
    }
}
