package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.Baton;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Spring Boot 4's {@code /actuator/health} component {@code baton} ({@link HealthReport}): Boot 4 moved the health
 * API to spring-boot-health, so this class is loaded only where that is.
 */
final class BatonBoot4HealthIndicator implements HealthIndicator {
    private final Baton baton;

    BatonBoot4HealthIndicator(Baton baton) {
        this.baton = Objects.requireNonNull(baton, "baton");
    }

    @Override
    public Health health() {
        HealthReport report = HealthReport.of(baton);
        return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
    }
}
