package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.ReadAuditTrailUseCase;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.AuditRecord;
import dev.baton.domain.QueueName;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/audit}: the audit trail of admin changes, newest first, keyset-paged by {@code limit} and
 * {@code before} (the {@code next} of the page before). Once passwords are set, the operator's alone: the trail tells
 * who changed what from which address, a map of the operator's work that a viewer, who changes nothing, has no use
 * for. {@code "recorded": false} says there is no ledger to keep it (at-least-once): the trail is the log alone.
 */
public final class AuditEndpoint implements Routes.Group {
    static final int DEFAULT_LIMIT = 50;
    private static final Set<String> PARAMS = Set.of("limit", "before");

    private final ReadAuditTrailUseCase trail;

    public AuditEndpoint(ReadAuditTrailUseCase trail) {
        this.trail = trail;
    }

    @Override
    public void addTo(Routes routes) {
        routes.get("/api/audit", request -> {
            if (request.user().filter(user -> user != AdminAccess.User.OPERATOR).isPresent()) {
                throw new AdminHttpException(403, "the audit trail is the operator's: log in as operator");
            }
            request.onlyQuery(PARAMS);
            ReadAuditTrailUseCase.Page page = trail.read(new ReadAuditTrailUseCase.Command(
                    request.query("before").map(AuditEndpoint::cursor),
                    Params.limit(request.query("limit"), DEFAULT_LIMIT, ReadAuditTrailUseCase.MAX_LIMIT)));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("recorded", page.recorded());
            body.put("items", page.items().stream().map(AuditEndpoint::json).toList());
            body.put("next", page.next().map(String::valueOf).orElse(null));
            request.respond(200, body);
        });
    }

    private static long cursor(String text) {
        try {
            long id = Long.parseLong(text);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw AdminHttpException.badRequest("before must be the next of a page (a positive whole number), got '"
                + text + "'");
    }

    private static Map<String, Object> json(AuditRecord record) {
        AuditEntry entry = record.entry();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", String.valueOf(record.id()));
        json.put("at", entry.at().toString());
        json.put("user", entry.user().orElse(null));
        json.put("client", entry.client());
        json.put("method", entry.method());
        json.put("path", entry.path());
        json.put("queue", entry.queue().map(QueueName::value).orElse(null));
        json.put("action", entry.action());
        json.put("summary", entry.summary());
        json.put("affected", entry.affected().isPresent() ? entry.affected().getAsLong() : null);
        json.put("status", entry.status());
        return json;
    }
}
