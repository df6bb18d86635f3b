package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.SearchOutcomesUseCase;
import dev.baton.domain.JobId;
import dev.baton.domain.OutcomeCursor;
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.OutcomeState;
import dev.baton.domain.QueueName;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /api/jobs/{id}?queue=Q} (where a job is: the ledger and Redis together, as {@code baton job} tells) and
 * {@code GET /api/queues/{queue}/outcomes} (the ledger search, newest first, keyset-paged).
 */
public final class JobEndpoints implements Routes.Group {
    static final int DEFAULT_LIMIT = 50;

    private final LocateJobUseCase locate;
    private final SearchOutcomesUseCase search;
    private final QueueEndpoints queues;

    public JobEndpoints(LocateJobUseCase locate, SearchOutcomesUseCase search, QueueEndpoints queues) {
        this.locate = locate;
        this.search = search;
        this.queues = queues;
    }

    @Override
    public void addTo(Routes routes) {
        routes.get("/api/jobs/{*}", request -> {
            QueueName queue = QueueName.of(request.query("queue").orElseThrow(() ->
                    AdminHttpException.badRequest("name the job's queue: /api/jobs/{id}?queue=Q")));
            JobId id = JobId.of(request.pathParam(0));
            Whereabouts whereabouts = locate.locate(new LocateJobUseCase.Command(queue, id));
            if (whereabouts instanceof Whereabouts.Unknown) {
                throw AdminHttpException.notFound("job '" + id.value() + "' of queue '" + queue.value()
                        + "' is unknown: never enqueued, or completed and forgotten after the retention, or"
                        + " completed without a ledger");
            }
            request.respond(200, JobJson.of(queue, id, whereabouts));
        });
        routes.get("/api/queues/{}/outcomes", request -> {
            QueueName queue = request.queue();
            queues.existing(queue);
            OutcomeQuery query = new OutcomeQuery(queue,
                    request.query("state").map(OutcomeState::parse),
                    request.query("reason").map(Params::reason),
                    request.query("from").map(text -> Params.instant("from", text)),
                    request.query("to").map(text -> Params.instant("to", text)),
                    request.query("error"),
                    request.query("before").map(OutcomeCursor::decode));
            SearchOutcomesUseCase.Page page = search.search(new SearchOutcomesUseCase.Command(query,
                    Params.limit(request.query("limit"), DEFAULT_LIMIT, SearchOutcomesUseCase.MAX_LIMIT)));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("items", page.items().stream().map(JobJson::outcome).toList());
            body.put("next", page.next().map(OutcomeCursor::encode).orElse(null));
            request.respond(200, body);
        });
    }
}
