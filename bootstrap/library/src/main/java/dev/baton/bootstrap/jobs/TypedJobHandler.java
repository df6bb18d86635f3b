package dev.baton.bootstrap.jobs;

import dev.baton.application.handler.JobContext;
import java.util.Optional;

/**
 * A handler of one {@link JobType}: gets the job's record, bound from its payload, and the attempt's context. The
 * rules of {@code JobHandler} hold: it runs in the ledger's transaction, {@code NonRetryableException} dead-letters,
 * any other exception is retried.
 */
@FunctionalInterface
public interface TypedJobHandler<T> {

    /** Does the work. @return an optional result text, stored with the completion */
    Optional<String> handle(T job, JobContext context) throws Exception;
}
