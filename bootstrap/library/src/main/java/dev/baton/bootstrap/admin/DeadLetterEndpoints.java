package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.ReadDeadLetterUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.bootstrap.json.Excerpt;
import dev.baton.bootstrap.json.Json;
import dev.baton.bootstrap.json.JsonCodec;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /api/queues/{queue}/dead} (dead letters, oldest first, filtered by reason, error type and time, with long
 * payloads, errors and traces cut: {@link Excerpt#LIST}), {@code GET /api/queues/{queue}/dead/{id}} (one dead letter
 * whole) and the changes {@code POST .../dead/replay} and {@code .../dead/purge}, whose body selects dead letters by
 * ids ({@code {"ids": [...]}}), by a filter of at least one criterion ({@code {"filter": {...}}}) or all
 * ({@code {"all": true}}), never all by an empty filter. Replaying moves a dead letter out of the dead letters, so the
 * same request again finds and runs nothing. The list refuses query parameters it does not know.
 */
public final class DeadLetterEndpoints implements Routes.Group {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    private static final Set<String> FILTER_KEYS = Set.of("reason", "error_type", "from", "to");
    private static final Set<String> LIST_PARAMS = Set.of("reason", "error_type", "from", "to", "limit", "before");

    private final ListDeadLettersUseCase list;
    private final ReadDeadLetterUseCase read;
    private final RedriveDeadLettersUseCase redrive;
    private final PurgeDeadLettersUseCase purge;
    private final QueueEndpoints queues;

    public DeadLetterEndpoints(ListDeadLettersUseCase list, ReadDeadLetterUseCase read,
                               RedriveDeadLettersUseCase redrive, PurgeDeadLettersUseCase purge,
                               QueueEndpoints queues) {
        this.list = list;
        this.read = read;
        this.redrive = redrive;
        this.purge = purge;
        this.queues = queues;
    }

    @Override
    public void addTo(Routes routes) {
        routes.get("/api/queues/{}/dead", this::list);
        // the id may hold a '/' (a partition's dead letter): the rest of the path
        routes.get("/api/queues/{}/dead/{*}", this::read);
        routes.post("/api/queues/{}/dead/replay", request -> change(request, "replayed", (queue, selection) ->
                redrive.redrive(new RedriveDeadLettersUseCase.Command(queue, selection))));
        routes.post("/api/queues/{}/dead/purge", request -> change(request, "purged", (queue, selection) ->
                purge.purge(new PurgeDeadLettersUseCase.Command(queue, selection))));
    }

    /** Asks for one more than the page: its presence says there is a next page. */
    private void list(AdminRequest request) throws IOException {
        QueueName queue = request.queue();
        request.onlyQuery(LIST_PARAMS);
        queues.existing(queue);
        DeadLetterSelection.ByFilter filter = new DeadLetterSelection.ByFilter(
                request.query("reason").map(Params::reason), request.query("error_type"),
                request.query("from").map(text -> Params.instant("from", text)),
                request.query("to").map(text -> Params.instant("to", text)));
        int limit = Params.limit(request.query("limit"), DEFAULT_LIMIT, MAX_LIMIT);
        List<StoredDeadLetter> found = list.list(new ListDeadLettersUseCase.Command(queue,
                request.query("before").map(DeadLetterId::of), limit + 1, filter));
        List<StoredDeadLetter> page = found.subList(0, Math.min(limit, found.size()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", page.stream().map(stored -> Json.deadLetter(stored, Excerpt.LIST)).toList());
        body.put("next", found.size() > limit ? page.get(page.size() - 1).id().value() : null);
        request.respond(200, body);
    }

    private void read(AdminRequest request) throws IOException {
        QueueName queue = request.queue();
        queues.existing(queue);
        DeadLetterId id = DeadLetterId.of(request.pathParam(1));
        StoredDeadLetter stored = read.read(new ReadDeadLetterUseCase.Command(queue, id)).orElseThrow(() ->
                AdminHttpException.notFound("queue '" + queue.value() + "' holds no dead letter '" + id.value()
                        + "': replayed, purged, or never there"));
        request.respond(200, Json.deadLetter(stored));
    }

    private void change(AdminRequest request, String done, Change change) throws IOException {
        QueueName queue = request.queue();
        DeadLetterSelection selection = selection(request.jsonBody());
        queues.existing(queue);
        int changed = change.apply(queue, selection);
        request.affected(changed);
        request.respond(200, Map.of(done, changed));
    }

    @FunctionalInterface
    private interface Change {
        int apply(QueueName queue, DeadLetterSelection selection);
    }

    /** The body's selection: exactly one of {@code ids}, {@code filter} and {@code "all": true}. */
    static DeadLetterSelection selection(Object body) {
        if (!(body instanceof Map<?, ?> object) || object.size() != 1) {
            throw AdminHttpException.badRequest("the body must be one of {\"ids\": [...]}, {\"filter\": {...}} or"
                    + " {\"all\": true}");
        }
        Map.Entry<?, ?> only = object.entrySet().iterator().next();
        Object value = only.getValue();
        return switch (String.valueOf(only.getKey())) {
            case "ids" -> ids(value);
            case "filter" -> filter(value);
            case "all" -> {
                if (!Boolean.TRUE.equals(value)) {
                    throw AdminHttpException.badRequest("\"all\" must be true");
                }
                yield new DeadLetterSelection.All();
            }
            default -> throw AdminHttpException.badRequest("unknown selection '" + only.getKey()
                    + "': use ids, filter or all");
        };
    }

    private static DeadLetterSelection ids(Object value) {
        if (!(value instanceof List<?> array) || array.isEmpty()) {
            throw AdminHttpException.badRequest("\"ids\" must be a non-empty array of dead letter ids");
        }
        List<DeadLetterId> ids = new ArrayList<>();
        for (Object id : array) {
            if (!(id instanceof String text)) {
                throw AdminHttpException.badRequest("\"ids\" must hold strings, got " + shown(id));
            }
            ids.add(DeadLetterId.of(text));
        }
        return new DeadLetterSelection.ByIds(ids);
    }

    private static DeadLetterSelection filter(Object value) {
        if (!(value instanceof Map<?, ?> filter)) {
            throw AdminHttpException.badRequest("\"filter\" must be an object of reason, error_type, from, to");
        }
        for (Object name : filter.keySet()) {
            if (!FILTER_KEYS.contains(name)) {
                throw AdminHttpException.badRequest("unknown filter '" + name + "': use reason, error_type, from, to");
            }
        }
        DeadLetterSelection.ByFilter selection = new DeadLetterSelection.ByFilter(
                text(filter, "reason").map(Params::reason), text(filter, "error_type"),
                text(filter, "from").map(text -> Params.instant("from", text)),
                text(filter, "to").map(text -> Params.instant("to", text)));
        if (selection.reason().isEmpty() && selection.errorType().isEmpty() && selection.from().isEmpty()
                && selection.to().isEmpty()) {
            // an empty filter matches every dead letter: that takes the explicit {"all": true}
            throw AdminHttpException.badRequest("the filter has no criterion (reason, error_type, from, to are all"
                    + " missing, null or empty); to select every dead letter send {\"all\": true}");
        }
        return selection;
    }

    private static Optional<String> text(Map<?, ?> filter, String name) {
        Object value = filter.get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw AdminHttpException.badRequest("filter '" + name + "' must be a string, got " + shown(value));
        }
        return Optional.of(text).filter(given -> !given.isEmpty());
    }

    /** A value of the body as it was sent. */
    private static String shown(Object value) {
        return JsonCodec.onClasspath().write(value);
    }
}
