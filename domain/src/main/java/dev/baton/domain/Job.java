package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A unit of work on a queue.
 *
 * @param id          the caller's idempotency key
 * @param queue       where the job travels
 * @param type        selects the handler when present; otherwise the queue's handler runs
 * @param payload     opaque text (JSON by convention), size-limited per queue by {@link PayloadLimit}
 * @param attempt     how many attempts were already made (0 for a new job)
 * @param enqueuedAt  when the job was first enqueued (kept across retries and redrives)
 * @param notBefore   the job is not due before this instant (delayed job or retry)
 * @param lastError   the error of the previous attempt, for retried jobs
 * @param headers     small string headers: any extra field of the stream entry; each name an RFC 7230 token of
 *                    at most {@value #MAX_HEADER_NAME} characters (letters, digits, {@code !#$%&'*+-.^_`|~})
 */
public record Job(JobId id, QueueName queue, Optional<String> type, String payload, int attempt, Instant enqueuedAt,
                  Optional<Instant> notBefore, Optional<JobError> lastError, Map<String, String> headers) {
    /** The header that counts a job's snoozes ({@link #snoozedUntil}). */
    public static final String SNOOZES = "snoozes";
    /**
     * The header that records since when (epoch milliseconds) the job has waited for a worker with its handler
     * ({@link NoHandlerPolicy}); a job that ran has stopped waiting, and loses it.
     */
    public static final String NO_HANDLER_SINCE = "no_handler_since";
    /** The longest header name, in characters. */
    public static final int MAX_HEADER_NAME = 128;

    public Job {
        notNull(id, "job id");
        notNull(queue, "queue");
        notNull(type, "type");
        notNull(payload, "payload");
        notNull(enqueuedAt, "enqueued-at");
        notNull(notBefore, "not-before");
        notNull(lastError, "last error");
        require(attempt >= 0, "attempt must not be negative, got " + attempt);
        type.ifPresent(t -> require(!t.isBlank() && t.length() <= 200 && Text.printable(t),
                "job type must be 1..200 printable characters"));
        headers = Map.copyOf(notNull(headers, "headers"));
        headers.keySet().forEach(Job::checkHeaderName);
    }

    /** A header name travels as a stream field and, through tracing, as an HTTP-like header: a token, short. */
    private static void checkHeaderName(String name) {
        if (name.length() > MAX_HEADER_NAME || !Text.token(name)) {
            throw new InvalidValueException("header name '" + Text.shown(name) + "' is invalid: use 1.."
                    + MAX_HEADER_NAME + " letters, digits or !#$%&'*+-.^_`|~ (an RFC 7230 token)");
        }
    }

    /** A new job, due now, with no type and no headers. */
    public static Job create(JobId id, QueueName queue, String payload, Instant enqueuedAt) {
        return new Job(id, queue, Optional.empty(), payload, 0, enqueuedAt, Optional.empty(), Optional.empty(),
                Map.of());
    }

    public Job withType(String newType) {
        return new Job(id, queue, Optional.ofNullable(newType), payload, attempt, enqueuedAt, notBefore, lastError,
                headers);
    }

    public Job withHeaders(Map<String, String> newHeaders) {
        return new Job(id, queue, type, payload, attempt, enqueuedAt, notBefore, lastError, newHeaders);
    }

    /** The same job, not due before {@code instant}. */
    public Job notBefore(Instant instant) {
        return new Job(id, queue, type, payload, attempt, enqueuedAt, Optional.of(instant), lastError, headers);
    }

    /** The number of the attempt that runs this job now (1-based). */
    public int currentAttempt() {
        return attempt + 1;
    }

    /** The job as it waits for its next attempt: one more attempt counted, the error kept, due at {@code dueAt}. */
    public Job retriedAfter(JobError error, Instant dueAt) {
        return new Job(id, queue, type, payload, attempt + 1, enqueuedAt, Optional.of(dueAt), Optional.of(error),
                headersWithout(NO_HANDLER_SINCE));
    }

    /**
     * The job as it waits after its handler snoozed it: the same attempt (a snooze spends none), the error of the
     * previous attempt kept, one more snooze counted in the {@value #SNOOZES} header, due at {@code dueAt}.
     */
    public Job snoozedUntil(Instant dueAt) {
        Map<String, String> counted = headersWithout(NO_HANDLER_SINCE);
        counted.put(SNOOZES, Integer.toString(snoozes() + 1));
        return new Job(id, queue, type, payload, attempt, enqueuedAt, Optional.of(dueAt), lastError, counted);
    }

    /** How often the job's handler snoozed it so far: the {@value #SNOOZES} header, 0 without (or with a bad) one. */
    public int snoozes() {
        try {
            return Math.max(0, Integer.parseInt(headers.getOrDefault(SNOOZES, "0")));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The job as it waits for a worker that has its handler: the same attempt (nothing ran), waiting since
     * {@code since} (the {@value #NO_HANDLER_SINCE} header), due at {@code dueAt}.
     */
    public Job waitingForHandler(Instant since, Instant dueAt) {
        Map<String, String> marked = new HashMap<>(headers);
        marked.put(NO_HANDLER_SINCE, Long.toString(since.toEpochMilli()));
        return new Job(id, queue, type, payload, attempt, enqueuedAt, Optional.of(dueAt), lastError, marked);
    }

    /** The same job without the {@value #NO_HANDLER_SINCE} header: a replay of it waits for a handler afresh. */
    public Job withoutHandlerWait() {
        return headers.containsKey(NO_HANDLER_SINCE) ? withHeaders(headersWithout(NO_HANDLER_SINCE)) : this;
    }

    /**
     * Since when the job has waited for a handler: the {@value #NO_HANDLER_SINCE} header, empty without (or with a
     * bad) one.
     */
    public Optional<Instant> noHandlerSince() {
        try {
            return Optional.ofNullable(headers.get(NO_HANDLER_SINCE)).map(Long::parseLong).map(Instant::ofEpochMilli);
        } catch (NumberFormatException | DateTimeException e) {
            return Optional.empty();
        }
    }

    private Map<String, String> headersWithout(String name) {
        Map<String, String> kept = new HashMap<>(headers);
        kept.remove(name);
        return kept;
    }

    /** The job as a redrive from the dead letters puts it back: attempts start again, no delay, no error. */
    public Job redriven() {
        return new Job(id, queue, type, payload, 0, enqueuedAt, Optional.empty(), Optional.empty(), headers);
    }

    /** True when the job may run at {@code now}. */
    public boolean isDueAt(Instant now) {
        return notBefore.map(due -> !due.isAfter(now)).orElse(true);
    }
}
