package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * The ledger's completions outside any job's transaction: looked up, counted, and forgotten after the retention, with
 * the records of purged dead letters (dead and replayed ones are kept: they say a job must not run, or runs again).
 */
final class CompletionLookups {
    static final int FORGET_BATCH_SIZE = 1_000;

    private final Jdbi jdbi;
    private final CompletionTable table;
    private final int forgetBatchSize;
    private final String countSql;
    private final String forgetSql;
    private final String forgetPurgedSql;
    private final String forgetCancelledSql;

    CompletionLookups(Jdbi jdbi, CompletionTable table, int forgetBatchSize) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.table = Objects.requireNonNull(table, "table");
        if (forgetBatchSize < 1) {
            throw new IllegalArgumentException("forget batch size must be positive, got " + forgetBatchSize);
        }
        this.forgetBatchSize = forgetBatchSize;
        this.countSql = "SELECT count(*) FROM " + table.name() + " WHERE queue = :queue AND state = 'completed'";
        // only a completed row has a completed_at
        this.forgetSql = forgetWhere("completed_at < :cutoff");
        this.forgetPurgedSql = forgetWhere("state = 'purged' AND state_changed_at < :cutoff");
        this.forgetCancelledSql = forgetWhere("state = 'cancelled' AND state_changed_at < :cutoff");
    }

    Optional<Completion> find(QueueName queue, JobId id) {
        return withHandle("could not look up job " + id + " of queue " + queue,
                handle -> table.findCompletion(handle, queue, id));
    }

    long countCompleted(QueueName queue) {
        return withHandle("could not count the completions of queue " + queue,
                handle -> handle.createQuery(countSql).bind("queue", queue.value()).mapTo(long.class).one());
    }

    private String forgetWhere(String condition) {
        return "DELETE FROM " + table.name() + " WHERE (job_id, queue) IN (SELECT job_id, queue FROM " + table.name()
                + " WHERE " + condition + " LIMIT :limit FOR UPDATE SKIP LOCKED)";
    }

    /** Completions, purged dead letters and cancels recorded before {@code cutoff}. @return how many were deleted */
    long forgetCompletedBefore(Instant cutoff) {
        return forget(forgetSql, cutoff) + forget(forgetPurgedSql, cutoff) + forget(forgetCancelledSql, cutoff);
    }

    /** Deletes in batches, each its own short transaction, so that a large backlog never holds locks for long. */
    private long forget(String sql, Instant cutoff) {
        return withHandle("could not forget the completions before " + cutoff, handle -> {
            long forgotten = 0;
            int deleted;
            do {
                deleted = handle.createUpdate(sql)
                        .bind("cutoff", LedgerTransactions.utc(cutoff))
                        .bind("limit", forgetBatchSize)
                        .execute();
                forgotten += deleted;
            } while (deleted == forgetBatchSize);
            return forgotten;
        });
    }

    private <T> T withHandle(String failure, HandleCallback<T, RuntimeException> callback) {
        try {
            return jdbi.withHandle(callback);
        } catch (JdbiException e) {
            throw unavailable(failure, e);
        }
    }
}
