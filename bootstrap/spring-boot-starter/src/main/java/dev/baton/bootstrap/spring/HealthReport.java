package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.Baton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Baton's health as the actuator shows it, on either Boot line: up while Redis and PostgreSQL (if used) answer, one
 * detail per server ({@code redis: UP}, {@code postgres: DOWN}); down with a {@code reasons} detail saying, for each
 * that does not answer, since when and why (never a password).
 */
record HealthReport(boolean up, Map<String, Object> details) {
    static HealthReport of(Baton baton) {
        Map<String, Optional<String>> servers = baton.healthProblems();
        Map<String, String> reasons = new LinkedHashMap<>();
        servers.forEach((name, problem) -> problem.ifPresent(reason -> reasons.put(name, reason)));
        Map<String, Object> details = new LinkedHashMap<>();
        if (!reasons.isEmpty()) {
            details.put("reasons", reasons);
        }
        servers.forEach((name, problem) -> details.put(name, problem.isEmpty() ? "UP" : "DOWN"));
        return new HealthReport(reasons.isEmpty(), details);
    }
}
