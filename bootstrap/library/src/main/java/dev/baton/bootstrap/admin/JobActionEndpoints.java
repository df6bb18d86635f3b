package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.in.DelayedJobChange;
import dev.baton.application.port.in.DeleteDelayedJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunJobNowUseCase;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Changes to one job, named by its queue and id (which may hold a '/'): {@code POST /api/queues/{queue}/jobs/{id}/
 * cancel} (as {@code baton cancel}), {@code .../run-now} (a delayed job becomes due) and {@code .../delete} (a delayed
 * job is removed without running). Changes, so the operator's only ({@link AdminAccess}). Each answers 200 with
 * {@code {"job_id", "queue", "answer"}}, 404 for a job neither the ledger nor a lookup in Redis knows, and 409 naming
 * the job's state when the action does not apply to it.
 */
public final class JobActionEndpoints implements Routes.Group {
    private final LocateJobUseCase locate;
    private final CancelJobUseCase cancel;
    private final RunJobNowUseCase runNow;
    private final DeleteDelayedJobUseCase delete;

    public JobActionEndpoints(LocateJobUseCase locate, CancelJobUseCase cancel, RunJobNowUseCase runNow,
                              DeleteDelayedJobUseCase delete) {
        this.locate = locate;
        this.cancel = cancel;
        this.runNow = runNow;
        this.delete = delete;
    }

    @Override
    public void addTo(Routes routes) {
        routes.post("/api/queues/{}/jobs/{*}/cancel", this::cancel);
        routes.post("/api/queues/{}/jobs/{*}/run-now", request -> changeDelayed(request, "due_now", "run now",
                (queue, id) -> runNow.runNow(new RunJobNowUseCase.Command(queue, id))));
        routes.post("/api/queues/{}/jobs/{*}/delete", request -> changeDelayed(request, "deleted", "deleted",
                (queue, id) -> delete.delete(new DeleteDelayedJobUseCase.Command(queue, id))));
    }

    /** Cancels only a job someone knows: {@code baton cancel} also cancels an id to come, the dashboard does not. */
    private void cancel(AdminRequest request) throws IOException {
        QueueName queue = request.queue();
        JobId id = JobId.of(request.pathParam(1));
        Whereabouts whereabouts = locate.locate(new LocateJobUseCase.Command(queue, id));
        if (whereabouts instanceof Whereabouts.Unknown) {
            throw unknown(queue, id);
        }
        CancelJobUseCase.Answer answer = cancel.cancel(new CancelJobUseCase.Command(queue, id));
        if (answer.isOtherwiseTerminal()) {
            throw new AdminHttpException(409, "job '" + id.value() + "' of queue '" + queue.value() + "' ended first ("
                    + label(answer) + "): nothing to cancel");
        }
        request.affected(answer == CancelJobUseCase.Answer.CANCELLED ? 1 : 0);
        request.respond(200, answer(queue, id, label(answer)));
    }

    private void changeDelayed(AdminRequest request, String done, String action,
                               BiFunction<QueueName, JobId, DelayedJobChange> change) throws IOException {
        QueueName queue = request.queue();
        JobId id = JobId.of(request.pathParam(1));
        DelayedJobChange changed = change.apply(queue, id);
        if (changed instanceof DelayedJobChange.NotDelayed notDelayed) {
            if (notDelayed.whereabouts() instanceof Whereabouts.Unknown) {
                throw unknown(queue, id);
            }
            throw new AdminHttpException(409, "job '" + id.value() + "' of queue '" + queue.value() + "' is "
                    + JobJson.of(queue, id, notDelayed.whereabouts()).get("state") + ": only a delayed job (scheduled,"
                    + " delayed or waiting to retry) can be " + action);
        }
        request.affected(1);
        request.respond(200, answer(queue, id, done));
    }

    private static AdminHttpException unknown(QueueName queue, JobId id) {
        return AdminHttpException.notFound("job '" + id.value() + "' of queue '" + queue.value() + "' is unknown:"
                + " never enqueued, ended and forgotten, or beyond what a lookup scans");
    }

    private static String label(CancelJobUseCase.Answer answer) {
        return answer.name().toLowerCase(Locale.ROOT);
    }

    private static Map<String, Object> answer(QueueName queue, JobId id, String answer) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("job_id", id.value());
        body.put("queue", queue.value());
        body.put("answer", answer);
        return body;
    }
}
