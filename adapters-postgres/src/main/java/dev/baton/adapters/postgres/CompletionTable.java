package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.QueueName;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.JdbiException;

/**
 * The {@code job_outcomes} table of one schema, keyed by job id and queue (a job id is unique within its queue): the
 * row a job is claimed or completed with (a {@code replayed} row is taken over), and reading it back. The ledger's own
 * statements go straight to JDBC: Jdbi's binding machinery cost more than they do.
 */
final class CompletionTable {
    static final String TABLE = "job_outcomes";
    /** The columns of a job's row that {@link #bindRow} binds, in its order. */
    static final String ROW_COLUMNS = "job_id, queue, type, attempt, consumer, message_id, completed_at";

    /**
     * How a first delivery's insert of its completion (into the table aliased {@code o}) meets an existing row: a
     * replayed job's row is taken over; any other gets a state the table's checks refuse, which fails the statement
     * like a key conflict (see {@link #isKeyConflict}).
     */
    static final String TAKE_OVER_REPLAYED = " ON CONFLICT (job_id, queue) DO UPDATE SET"
            + " state = CASE WHEN o.state = 'replayed' THEN 'completed' ELSE 'ended before' END,"
            + " type = EXCLUDED.type, attempt = EXCLUDED.attempt,"
            + " consumer = EXCLUDED.consumer, message_id = EXCLUDED.message_id, result = EXCLUDED.result,"
            + " completed_at = EXCLUDED.completed_at";

    private static final OutcomeMapper MAPPER = new OutcomeMapper();

    private final String schema;
    private final String name;
    private final String findSql;

    CompletionTable(String schema) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.name = schema + "." + TABLE;
        this.findSql = "SELECT " + OutcomeMapper.COLUMNS + " FROM " + name
                + " WHERE job_id = :key AND queue = :queue";
    }

    /** The table's name, qualified with its schema. */
    String name() {
        return name;
    }

    /** Binds the columns of {@link #ROW_COLUMNS} from parameter {@code at + 1} on. */
    static void bindRow(PreparedStatement statement, int at, Execution execution, Instant completedAt)
            throws SQLException {
        Job job = execution.job();
        statement.setString(at + 1, job.id().value());
        statement.setString(at + 2, job.queue().value());
        statement.setString(at + 3, job.type().orElse(null));
        statement.setInt(at + 4, job.currentAttempt());
        statement.setString(at + 5, execution.consumer().value());
        statement.setString(at + 6, execution.deliveryId().value());
        statement.setObject(at + 7, LedgerTransactions.utc(completedAt));
    }

    /** Runs the statement(s) and returns the update count of the last one. */
    static int lastUpdateCount(PreparedStatement statement) throws SQLException {
        statement.execute();
        int count = statement.getUpdateCount();
        while (statement.getMoreResults() || statement.getUpdateCount() != -1) {
            count = statement.getUpdateCount() == -1 ? count : statement.getUpdateCount();
        }
        return count;
    }

    /**
     * True when inserting a job's row found its job id taken: a unique violation of the key, or the check violation
     * that a first delivery's insert provokes on purpose when the row it conflicts with is not a replayed one (see
     * {@link RunThenComplete}); no legitimate row of the ledger violates a check.
     */
    boolean isKeyConflict(SQLException failure) {
        return SqlFailures.isUniqueViolationOf(failure, schema, TABLE + "_pkey")
                || SqlFailures.isCheckViolationOn(failure, schema, TABLE);
    }

    /** How the job with this key of {@code queue} ended, read in a new statement (a new READ COMMITTED snapshot). */
    Optional<JobOutcome> find(Handle handle, QueueName queue, String key) {
        try {
            return handle.createQuery(findSql).bind("key", key).bind("queue", queue.value()).map(MAPPER).findOne();
        } catch (JdbiException e) {
            throw unavailable("could not look up job " + key + " of queue " + queue, e);
        }
    }

    Optional<Completion> findCompletion(Handle handle, QueueName queue, JobId id) {
        return find(handle, queue, id.value()).filter(JobOutcome.Completed.class::isInstance)
                .map(outcome -> ((JobOutcome.Completed) outcome).completion());
    }

    /**
     * How a job whose key a claim or an insert found taken ended: a new statement, so a new READ COMMITTED snapshot,
     * sees the row the claim (or the insert) waited for.
     *
     * @return {@code AlreadyCompleted}, {@code AlreadyCancelled} or {@code AlreadyDead}; empty when the job may run
     *     after all: its row says replayed, or is gone (retention ran at the same time)
     */
    Optional<LedgerOutcome> endedBefore(Handle handle, QueueName queue, JobId id) {
        return find(handle, queue, id.value()).flatMap(outcome -> {
            if (outcome instanceof JobOutcome.Completed completed) {
                return Optional.of(new LedgerOutcome.AlreadyCompleted(completed.completion()));
            }
            if (outcome instanceof JobOutcome.Cancelled cancelled) {
                return Optional.of(new LedgerOutcome.AlreadyCancelled(cancelled));
            }
            return outcome instanceof JobOutcome.Replayed ? Optional.empty()
                    : Optional.of(new LedgerOutcome.AlreadyDead(outcome));
        });
    }
}
