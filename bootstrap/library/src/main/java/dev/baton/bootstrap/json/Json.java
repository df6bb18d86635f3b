package dev.baton.bootstrap.json;

import dev.baton.application.port.in.InspectQueueUseCase.QueueReport;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.ErrorTrace;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.QueueStats;
import dev.baton.domain.StoredDeadLetter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The one JSON shape of Baton's reports, shared by {@code /api/queues} and the CLI's {@code --json}. */
public final class Json {
    private Json() {
    }

    /** A report as indented JSON. */
    public static String write(Object report) {
        return JsonCodec.onClasspath().writeIndented(report);
    }

    public static Map<String, Object> queue(QueueReport report) {
        QueueStats stats = report.stats();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("queue", stats.queue().value());
        json.put("length", stats.length());
        json.put("lag", stats.lag().isPresent() ? stats.lag().getAsLong() : null);
        json.put("pending", stats.pending());
        json.put("oldest_pending_idle_ms", stats.oldestPendingIdle().toMillis());
        json.put("delayed", stats.delayed());
        json.put("dead", stats.dead());
        json.put("suspects", stats.suspects());
        json.put("isolated_deliveries", stats.isolatedDeliveries());
        json.put("paused", stats.paused());
        json.put("completed", report.completed().isPresent() ? report.completed().getAsLong() : null);
        // from the ledger, which outlives what Redis may lose; null without a ledger
        json.put("dead_in_ledger", report.completed().isPresent() ? new TreeMap<>(report.deadByReason()) : null);
        json.put("consumers", stats.consumers().stream().map(Json::consumer).toList());
        return json;
    }

    private static Map<String, Object> consumer(ConsumerStats consumer) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", consumer.name());
        json.put("pending", consumer.pending());
        json.put("idle_ms", consumer.idle().toMillis());
        return json;
    }

    /** A dead letter whole. */
    public static Map<String, Object> deadLetter(StoredDeadLetter stored) {
        return deadLetter(stored, Excerpt.WHOLE);
    }

    /** A dead letter with its payload, raw fields, error messages and trace cut as {@code excerpt} says. */
    public static Map<String, Object> deadLetter(StoredDeadLetter stored, Excerpt excerpt) {
        DeadLetter letter = stored.letter();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", stored.id().value());
        json.put("job_id", letter.jobId().orElse(null));
        json.put("reason", letter.reason().name());
        json.put("error", error(letter.lastError(), excerpt));
        Excerpt.put(json, "trace", letter.trace().map(ErrorTrace::text).orElse(null), excerpt.traceChars());
        json.put("attempts", letter.attempts());
        json.put("dead_at", letter.deadAt().toString());
        letter.job().ifPresentOrElse(job -> json.put("job", deadJob(job, excerpt)),
                () -> rawFields(json, letter.rawFields(), excerpt));
        return json;
    }

    /** A malformed entry's fields, each value cut like a payload; {@code fields_truncated} has the cut ones' sizes. */
    private static void rawFields(Map<String, Object> json, Map<String, String> rawFields, Excerpt excerpt) {
        Map<String, Object> fields = new TreeMap<>();
        Map<String, Object> cut = new TreeMap<>();
        rawFields.forEach((name, value) -> {
            fields.put(name, Excerpt.shown(value, excerpt.payloadChars()));
            Map<String, Object> whole = Excerpt.whole(value, excerpt.payloadChars());
            if (whole != null) {
                cut.put(name, whole);
            }
        });
        json.put("fields", fields);
        if (!cut.isEmpty()) {
            json.put("fields_truncated", cut);
        }
    }

    /**
     * The job of a dead letter, without its wire {@code attempt} (the attempts made before the last delivery, one
     * less than the letter's {@code attempts} for a job that failed): shown beside the letter's count it read as a
     * contradiction. See docs/REDIS.md.
     */
    private static Map<String, Object> deadJob(Job job, Excerpt excerpt) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("job_id", job.id().value());
        json.put("queue", job.queue().value());
        json.put("type", job.type().orElse(null));
        Excerpt.put(json, "payload", job.payload(), excerpt.payloadChars());
        json.put("enqueued_at", job.enqueuedAt().toString());
        json.put("not_before", job.notBefore().map(Object::toString).orElse(null));
        json.put("last_error", job.lastError().map(error -> error(error, excerpt)).orElse(null));
        json.put("headers", job.headers());
        return json;
    }

    public static Map<String, Object> error(JobError error) {
        return error(error, Excerpt.WHOLE);
    }

    private static Map<String, Object> error(JobError error, Excerpt excerpt) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("type", error.type());
        Excerpt.put(json, "message", error.message(), excerpt.errorChars());
        json.put("retryable", error.retryable());
        return json;
    }

    /** The queues' reports, and the outbox's backlog ({@code null} without a PostgreSQL ledger). */
    public static Map<String, Object> queues(List<QueueReport> reports, Optional<OutboxBacklog> outbox) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("queues", reports.stream().map(Json::queue).toList());
        json.put("outbox", outbox.map(Json::outbox).orElse(null));
        return json;
    }

    /** The outbox's backlog: rows waiting, the oldest one's wait, malformed rows. */
    public static Map<String, Object> outbox(OutboxBacklog backlog) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("waiting", backlog.waiting());
        json.put("oldest_waiting_ms", backlog.oldestWaiting().toMillis());
        json.put("malformed", backlog.malformed());
        return json;
    }
}
