package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A uniqueness key for an enqueue: while a job holding {@code key} is waiting, delayed or running on its queue,
 * another enqueue with the key adds nothing and is told the holder's job id. The key is released when its job
 * reaches a terminal outcome (completed, dead-lettered, cancelled), or {@code afterCompletion} later when the job
 * completed. A retry keeps it. See docs/HANDLERS.md#unique-jobs.
 *
 * <p>The job carries its key in the headers {@value #KEY_HEADER} and {@value #FOR_HEADER} (milliseconds), so that
 * every move of the job (retry, reclaim, dead letter) knows which key to keep or release.
 */
public record Uniqueness(String key, Optional<Duration> afterCompletion) {
    public static final int MAX_LENGTH = 256;
    public static final String KEY_HEADER = "unique_key";
    public static final String FOR_HEADER = "unique_for_ms";

    public Uniqueness {
        notNull(key, "uniqueness key");
        notNull(afterCompletion, "after completion");
        require(!key.isEmpty() && key.length() <= MAX_LENGTH,
                "uniqueness key must have 1.." + MAX_LENGTH + " characters, got " + key.length());
        require(Text.printable(key), "uniqueness key must be printable text without control characters");
        afterCompletion.ifPresent(period -> require(period.toMillis() > 0,
                "the period after completion must be at least 1 ms, got " + period));
    }

    /** Unique while the job is waiting, delayed or running. */
    public static Uniqueness of(String key) {
        return new Uniqueness(key, Optional.empty());
    }

    /** Also unique for {@code period} after the job completed. */
    public Uniqueness andFor(Duration period) {
        return new Uniqueness(key, Optional.of(period));
    }

    /** How long the key outlives a completion, in milliseconds; 0 when it is released at once. */
    public long afterCompletionMillis() {
        return afterCompletion.map(Duration::toMillis).orElse(0L);
    }

    /**
     * The job with this key in its headers.
     *
     * @throws InvalidValueException when the job already names a uniqueness key
     */
    public Job on(Job job) {
        require(carriedBy(job).isEmpty(), "job " + job.id() + " already carries header '" + KEY_HEADER + "'");
        Map<String, String> headers = new HashMap<>(job.headers());
        headers.put(KEY_HEADER, key);
        headers.put(FOR_HEADER, Long.toString(afterCompletionMillis()));
        return job.withHeaders(headers);
    }

    /** The uniqueness a job carries in its headers; empty for a job enqueued without one. */
    public static Optional<Uniqueness> carriedBy(Job job) {
        String key = job.headers().get(KEY_HEADER);
        if (key == null) {
            return Optional.empty();
        }
        long millis = parseMillis(job.headers().getOrDefault(FOR_HEADER, "0"));
        return Optional.of(new Uniqueness(key, millis > 0 ? Optional.of(Duration.ofMillis(millis)) : Optional.empty()));
    }

    private static long parseMillis(String value) {
        try {
            return Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
