package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.statement.Query;

/**
 * The ledger's record of dead letters in the {@code job_outcomes} table, next to the completions: each call one
 * statement in a transaction of its own (autocommit), never held open across anything else.
 */
final class PostgresJobOutcomes implements JobOutcomes {
    // a row that a concurrent transaction committed while the upsert waited for it is not in the statement's
    // snapshot: the next statement sees it
    private static final int ATTEMPTS = 3;

    private final Jdbi jdbi;
    private final CompletionTable table;
    private final String recordDeadSql;
    private final String recordCancelledSql;
    private final String replayedSql;
    private final String purgedSql;
    private final String countDeadSql;
    private final OutcomeSearch search;

    PostgresJobOutcomes(Jdbi jdbi, CompletionTable table) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.table = Objects.requireNonNull(table, "table");
        String columns = OutcomeMapper.COLUMNS;
        // dead unless the row says otherwise: a replayed job dies anew, a completed, dead or purged one stays so;
        // the row as it is afterwards comes back either way
        this.recordDeadSql = "WITH dead AS (INSERT INTO " + table.name() + " AS o (job_id, queue, attempt, consumer,"
                + " message_id, state, reason, error_type, error_message, dead_at, state_changed_at)"
                + " VALUES (:key, :queue, :attempts, :consumer, :entryId, 'dead', :reason, :errorType, :errorMessage,"
                + " :deadAt, :deadAt) ON CONFLICT (job_id, queue) DO UPDATE SET state = 'dead',"
                + " attempt = EXCLUDED.attempt, consumer = EXCLUDED.consumer, message_id = EXCLUDED.message_id,"
                + " reason = EXCLUDED.reason, error_type = EXCLUDED.error_type,"
                + " error_message = EXCLUDED.error_message, dead_at = EXCLUDED.dead_at,"
                + " state_changed_at = EXCLUDED.state_changed_at WHERE o.state = 'replayed' RETURNING " + columns + ")"
                + " SELECT " + columns + " FROM dead UNION ALL SELECT " + columns + " FROM " + table.name()
                + " WHERE job_id = :key AND queue = :queue AND NOT EXISTS (SELECT 1 FROM dead)";
        // cancelled unless the row says otherwise (a replayed job is cancelled too); the row afterwards either way
        this.recordCancelledSql = "WITH cancelled AS (INSERT INTO " + table.name() + " AS o (job_id, queue, attempt,"
                + " consumer, message_id, state, state_changed_at) VALUES (:key, :queue, 0, '', '', 'cancelled', :at)"
                + " ON CONFLICT (job_id, queue) DO UPDATE SET state = 'cancelled',"
                + " state_changed_at = EXCLUDED.state_changed_at WHERE o.state = 'replayed' RETURNING " + columns + ")"
                + " SELECT " + columns + " FROM cancelled UNION ALL SELECT " + columns + " FROM " + table.name()
                + " WHERE job_id = :key AND queue = :queue AND NOT EXISTS (SELECT 1 FROM cancelled)";
        this.replayedSql = "UPDATE " + table.name() + " SET state = 'replayed', state_changed_at = :at"
                + " WHERE job_id = ANY(:keys) AND queue = :queue AND state = 'dead'";
        this.purgedSql = "UPDATE " + table.name() + " SET state = 'purged', state_changed_at = :at"
                + " WHERE job_id = ANY(:keys) AND queue = :queue AND state IN ('dead', 'replayed')";
        this.search = new OutcomeSearch(table.name());
        this.countDeadSql = "SELECT reason, count(*) AS dead FROM " + table.name()
                + " WHERE queue = :queue AND state = 'dead' GROUP BY reason";
    }

    @Override
    public JobOutcome recordDead(DeadLetterRecord record) {
        Objects.requireNonNull(record, "record");
        return upsert(recordDeadSql, record.key(), "dead letter", query -> query
                .bind("key", record.key())
                .bind("queue", record.queue().value())
                .bind("attempts", record.attempts())
                .bind("consumer", record.consumer().value())
                .bind("entryId", record.entryId())
                .bind("reason", record.reason().name())
                .bind("errorType", record.error().type())
                .bind("errorMessage", record.error().message())
                .bind("deadAt", LedgerTransactions.utc(record.deadAt())));
    }

    @Override
    public JobOutcome recordCancelled(String key, QueueName queue, Instant at) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(at, "at");
        return upsert(recordCancelledSql, key, "cancel", query -> query
                .bind("key", key)
                .bind("queue", queue.value())
                .bind("at", LedgerTransactions.utc(at)));
    }

    /** Runs an upsert that returns the job's row as it is afterwards, again while the row changed under it. */
    private JobOutcome upsert(String sql, String key, String what, UnaryOperator<Query> binder) {
        return withHandle("could not record the " + what + " of job " + key, handle -> {
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                Optional<JobOutcome> outcome = binder.apply(handle.createQuery(sql)).map(new OutcomeMapper())
                        .findOne();
                if (outcome.isPresent()) {
                    return outcome.get();
                }
            }
            throw new LedgerUnavailableException("the row of job " + key + " kept changing while its " + what
                    + " was recorded", null);
        });
    }

    @Override
    public int recordReplayed(QueueName queue, Collection<String> keys, Instant at) {
        return changeState(replayedSql, "replay", queue, keys, at);
    }

    @Override
    public int recordPurged(QueueName queue, Collection<String> keys, Instant at) {
        return changeState(purgedSql, "purge", queue, keys, at);
    }

    private int changeState(String sql, String change, QueueName queue, Collection<String> keys, Instant at) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(at, "at");
        List<String> keyList = List.copyOf(keys);
        if (keyList.isEmpty()) {
            return 0;
        }
        return withHandle("could not record the " + change + " of " + keyList.size() + " dead letters of queue "
                + queue, handle -> handle.createUpdate(sql)
                        .bindArray("keys", String.class, keyList)
                        .bind("queue", queue.value())
                        .bind("at", LedgerTransactions.utc(at))
                        .execute());
    }

    @Override
    public Optional<JobOutcome> find(QueueName queue, String key) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(key, "key");
        return withHandle("could not look up job " + key + " of queue " + queue,
                handle -> table.find(handle, queue, key));
    }

    @Override
    public Map<DeadLetterReason, Long> countDead(QueueName queue) {
        Objects.requireNonNull(queue, "queue");
        return withHandle("could not count the dead letters of queue " + queue, handle -> {
            Map<DeadLetterReason, Long> counts = new EnumMap<>(DeadLetterReason.class);
            handle.createQuery(countDeadSql).bind("queue", queue.value())
                    .map((rs, ctx) -> Map.entry(DeadLetterReason.valueOf(rs.getString("reason")), rs.getLong("dead")))
                    .forEach(entry -> counts.put(entry.getKey(), entry.getValue()));
            return Map.copyOf(counts);
        });
    }

    @Override
    public List<JobOutcome> search(OutcomeQuery query, int limit) {
        Objects.requireNonNull(query, "query");
        return withHandle("could not search the outcomes of queue " + query.queue(),
                handle -> search.search(handle, query, limit));
    }

    @Override
    public long countCompletedSince(QueueName queue, Instant since) {
        Objects.requireNonNull(queue, "queue");
        return withHandle("could not count the completions of queue " + queue,
                handle -> search.countCompletedSince(handle, queue, since));
    }

    private <T> T withHandle(String failure, HandleCallback<T, RuntimeException> callback) {
        try {
            return jdbi.withHandle(callback);
        } catch (JdbiException e) {
            throw unavailable(failure, e);
        }
    }
}
