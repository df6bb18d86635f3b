package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpExchange;
import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.bootstrap.json.Json;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /api/queues/{queue}/pause} and {@code .../resume}: the admin server's one change to a queue. The
 * request must say {@code Content-Type: application/json}: a browser sends that across origins only after a CORS
 * preflight, which this server never grants, so a web page cannot pause a queue through a local browser.
 */
public final class PauseEndpoint {
    private static final String PREFIX = "/api/queues/";

    private final PauseQueueUseCase pause;
    private final ResumeQueueUseCase resume;

    public PauseEndpoint(PauseQueueUseCase pause, ResumeQueueUseCase resume) {
        this.pause = pause;
        this.resume = resume;
    }

    void handle(HttpExchange exchange) throws IOException {
        String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
        if (!contentType.startsWith("application/json")) {
            AdminServer.respond(exchange, 415, "text/plain", "send Content-Type: application/json\n");
            return;
        }
        String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
        int slash = path.lastIndexOf('/');
        String action = slash < 0 ? "" : path.substring(slash + 1);
        if (!action.equals("pause") && !action.equals("resume")) {
            AdminServer.respond(exchange, 404, "text/plain", "POST /api/queues/{queue}/pause or .../resume\n");
            return;
        }
        QueueName queue;
        try {
            queue = QueueName.of(path.substring(0, slash));
        } catch (InvalidValueException e) {
            AdminServer.respond(exchange, 400, "application/json", Json.write(Map.of("error", e.getMessage())));
            return;
        }
        boolean paused = action.equals("pause");
        if (paused) {
            pause.pause(new PauseQueueUseCase.Command(queue));
        } else {
            resume.resume(new ResumeQueueUseCase.Command(queue));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("queue", queue.value());
        body.put("paused", paused);
        AdminServer.respond(exchange, 200, "application/json", Json.write(body));
    }
}
