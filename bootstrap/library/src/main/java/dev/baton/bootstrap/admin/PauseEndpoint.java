package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.domain.QueueName;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /api/queues/{queue}/pause} and {@code .../resume}: changes, so the operator's only, guarded like every
 * change ({@link AdminAccess}). Without an operator password the CLI ({@code baton queue pause|resume}) does it.
 */
public final class PauseEndpoint implements Routes.Group {
    private final PauseQueueUseCase pause;
    private final ResumeQueueUseCase resume;

    public PauseEndpoint(PauseQueueUseCase pause, ResumeQueueUseCase resume) {
        this.pause = pause;
        this.resume = resume;
    }

    @Override
    public void addTo(Routes routes) {
        routes.post("/api/queues/{}/pause", request -> {
            QueueName queue = request.queue();
            pause.pause(new PauseQueueUseCase.Command(queue));
            request.affected(1);
            request.respond(200, answer(queue, true));
        });
        routes.post("/api/queues/{}/resume", request -> {
            QueueName queue = request.queue();
            resume.resume(new ResumeQueueUseCase.Command(queue));
            request.affected(1);
            request.respond(200, answer(queue, false));
        });
    }

    private static Map<String, Object> answer(QueueName queue, boolean paused) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("queue", queue.value());
        body.put("paused", paused);
        return body;
    }
}
