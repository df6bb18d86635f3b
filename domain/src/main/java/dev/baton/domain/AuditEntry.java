package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One change asked of the admin server, as the audit trail keeps it: when; who (the admin user, empty without
 * passwords) and from where (the client's address); what (the method and path, the queue they name, the route's
 * action, a summary of the body); how many it affected, when the handler knew; and the answer's status.
 */
public record AuditEntry(Instant at, Optional<String> user, String client, String method, String path,
                         Optional<QueueName> queue, String action, String summary, OptionalLong affected,
                         int status) {
    /** Longer summaries are cut to this many characters, the last one an ellipsis. */
    public static final int MAX_SUMMARY = 200;

    public AuditEntry {
        notNull(at, "at");
        notNull(user, "user");
        notNull(client, "client");
        notNull(method, "method");
        notNull(path, "path");
        notNull(queue, "queue");
        notNull(action, "action");
        notNull(summary, "summary");
        notNull(affected, "affected");
        require(affected.orElse(0) >= 0, "an entry cannot affect a negative count, got " + affected);
        require(status >= 100 && status <= 599, "an HTTP status is 100..599, got " + status);
        if (summary.length() > MAX_SUMMARY) {
            summary = summary.substring(0, MAX_SUMMARY - 1) + "…";
        }
    }
}
