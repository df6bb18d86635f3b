package dev.baton.bootstrap.admin;

import dev.baton.bootstrap.metrics.Meters;
import dev.baton.bootstrap.wiring.HealthCheck;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /health/live}, {@code /health/ready} (503 unless every dependency answers, with why each one that does not is
 * down) and {@code /metrics} (Prometheus text; 404 with the reason in one line when Baton's meters have none, see
 * {@link Meters}): open to all, whatever the login.
 */
public final class HealthEndpoints implements Routes.Group {
    private final List<HealthCheck> checks;
    private final Meters meters;

    public HealthEndpoints(List<HealthCheck> checks, Meters meters) {
        this.checks = List.copyOf(checks);
        this.meters = meters;
    }

    @Override
    public void addTo(Routes routes) {
        routes.get("/health/live", request -> request.respond(200, "text/plain", "live\n"));
        routes.get("/health/ready", request -> {
            Map<String, String> status = new LinkedHashMap<>();
            Map<String, String> reasons = new LinkedHashMap<>();
            for (HealthCheck check : checks) {
                Optional<String> problem = check.problem();
                status.put(check.name(), problem.isEmpty() ? "up" : "down");
                problem.ifPresent(reason -> reasons.put(check.name(), reason));
            }
            boolean up = reasons.isEmpty();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", up ? "up" : "down");
            body.put("checks", status);
            if (!up) {
                body.put("reasons", reasons);
            }
            request.respond(up ? 200 : 503, body);
        });
        routes.get("/metrics", request -> {
            Optional<String> text = meters.prometheusText();
            if (text.isPresent()) {
                request.respond(200, "text/plain; version=0.0.4; charset=utf-8", text.get());
            } else {
                request.respond(404, "text/plain; charset=utf-8", meters.whyNoText() + "\n");
            }
        });
    }
}
