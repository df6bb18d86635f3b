package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.Baton;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Baton's health as the actuator shows it, on either Boot line: up while every server Baton uses answers, one detail
 * per server ({@code redis: UP}, {@code postgres: DOWN}).
 */
record HealthReport(boolean up, Map<String, Object> details) {
    static HealthReport of(Baton baton) {
        Map<String, Boolean> servers = baton.health();
        Map<String, Object> details = new LinkedHashMap<>();
        servers.forEach((name, up) -> details.put(name, up ? "UP" : "DOWN"));
        return new HealthReport(!servers.containsValue(false), details);
    }
}
