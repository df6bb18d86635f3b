package dev.baton.application.handler;

import java.util.Optional;

/**
 * User code that does a job's work. With a ledger (exactly-once effect) it runs inside the ledger's transaction:
 * write through {@code context.unwrap(Handle.class)} and the writes commit with the job's completion or not at all.
 * Without one (at-least-once), it must be idempotent.
 *
 * <p>Throw {@link NonRetryableException} when trying again cannot help; any other exception is retried by the
 * queue's retry policy. Register handlers by name with {@code ServiceLoader} ({@link NamedJobHandler}) or in code.
 */
@FunctionalInterface
public interface JobHandler {

    /** Does the work. @return an optional result text, stored with the completion */
    Optional<String> handle(JobContext context) throws Exception;
}
