package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;
import static dev.baton.domain.InvalidValueException.require;

/**
 * The caller's idempotency key for a job, for example {@code order-1001}, unique within the job's queue: the same id on
 * two queues names two jobs. The execution ledger keys completions by the queue and this id, never by the stream
 * message id (which changes on retry, redrive or a replay after failover).
 */
public record JobId(String value) {
    public static final int MAX_LENGTH = 256;

    public JobId {
        notNull(value, "job id");
        require(!value.isEmpty() && value.length() <= MAX_LENGTH,
                "job id must have 1.." + MAX_LENGTH + " characters, got " + value.length());
        require(Text.printable(value), "job id must be printable text without control characters");
    }

    public static JobId of(String value) {
        return new JobId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
