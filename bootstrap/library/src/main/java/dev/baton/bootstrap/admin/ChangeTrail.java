package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.RecordAuditEntryUseCase;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Hands every request to a change route to the audit trail once it is answered, whatever the route (those added later
 * too) and whatever the answer: done, refused or failed. The entry is read off the request alone: the user, the
 * client, the path and the queue it names, the route's action, the body the handler read (redacted and cut short),
 * the count the handler reported ({@link AdminRequest#affected(long)}) and the status.
 */
final class ChangeTrail {
    private final RecordAuditEntryUseCase audit;
    private final Clock clock;
    private final UnaryOperator<String> redact;

    ChangeTrail(RecordAuditEntryUseCase audit, Clock clock, UnaryOperator<String> redact) {
        this.audit = audit;
        this.clock = clock;
        this.redact = redact;
    }

    /** Records the answered request to {@code route}; never throws for a trail that cannot keep it. */
    void record(AdminRequest request, Routes.Route route, int status) {
        audit.record(new RecordAuditEntryUseCase.Command(new AuditEntry(clock.instant(),
                request.user().map(AdminAccess.User::label), request.client(), request.method(), request.path(),
                queue(request), action(route.template()), redact.apply(request.bodyRead()), request.affected(),
                status)));
    }

    /** The route's template without {@code /api/} and its parameters: {@code queues/dead/replay}. */
    static String action(String template) {
        return Arrays.stream(template.replaceFirst("^/api/", "").split("/"))
                .filter(segment -> !segment.isEmpty() && !segment.startsWith("{"))
                .collect(Collectors.joining("/"));
    }

    /** The queue the path ({@code /api/queues/Q/...}) or the {@code queue} parameter names, if valid. */
    private static Optional<QueueName> queue(AdminRequest request) {
        String[] segments = request.path().split("/");
        Optional<String> named = segments.length > 3 && segments[2].equals("queues")
                ? Optional.of(segments[3]) : queryParameter(request);
        try {
            return named.map(QueueName::of);
        } catch (InvalidValueException e) {
            return Optional.empty(); // the change was refused as a 400 for it: its path still shows the name
        }
    }

    private static Optional<String> queryParameter(AdminRequest request) {
        try {
            return request.query("queue");
        } catch (AdminHttpException e) {
            return Optional.empty(); // a malformed query string: the change was refused as a 400 for it
        }
    }
}
