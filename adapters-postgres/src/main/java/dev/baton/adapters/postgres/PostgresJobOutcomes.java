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
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

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
                + " :deadAt, :deadAt) ON CONFLICT (job_id) DO UPDATE SET state = 'dead', queue = EXCLUDED.queue,"
                + " attempt = EXCLUDED.attempt, consumer = EXCLUDED.consumer, message_id = EXCLUDED.message_id,"
                + " reason = EXCLUDED.reason, error_type = EXCLUDED.error_type,"
                + " error_message = EXCLUDED.error_message, dead_at = EXCLUDED.dead_at,"
                + " state_changed_at = EXCLUDED.state_changed_at WHERE o.state = 'replayed' RETURNING " + columns + ")"
                + " SELECT " + columns + " FROM dead UNION ALL SELECT " + columns + " FROM " + table.name()
                + " WHERE job_id = :key AND NOT EXISTS (SELECT 1 FROM dead)";
        this.replayedSql = "UPDATE " + table.name() + " SET state = 'replayed', state_changed_at = :at"
                + " WHERE job_id = ANY(:keys) AND state = 'dead'";
        this.purgedSql = "UPDATE " + table.name() + " SET state = 'purged', state_changed_at = :at"
                + " WHERE job_id = ANY(:keys) AND state IN ('dead', 'replayed')";
        this.search = new OutcomeSearch(table.name());
        this.countDeadSql = "SELECT reason, count(*) AS dead FROM " + table.name()
                + " WHERE queue = :queue AND state = 'dead' GROUP BY reason";
    }

    @Override
    public JobOutcome recordDead(DeadLetterRecord record) {
        Objects.requireNonNull(record, "record");
        return withHandle("could not record the dead letter of job " + record.key(), handle -> {
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                Optional<JobOutcome> outcome = handle.createQuery(recordDeadSql)
                        .bind("key", record.key())
                        .bind("queue", record.queue().value())
                        .bind("attempts", record.attempts())
                        .bind("consumer", record.consumer().value())
                        .bind("entryId", record.entryId())
                        .bind("reason", record.reason().name())
                        .bind("errorType", record.error().type())
                        .bind("errorMessage", record.error().message())
                        .bind("deadAt", LedgerTransactions.utc(record.deadAt()))
                        .map(new OutcomeMapper())
                        .findOne();
                if (outcome.isPresent()) {
                    return outcome.get();
                }
            }
            throw new LedgerUnavailableException("the row of job " + record.key() + " kept changing while its dead"
                    + " letter was recorded", null);
        });
    }

    @Override
    public int recordReplayed(Collection<String> keys, Instant at) {
        return changeState(replayedSql, "replay", keys, at);
    }

    @Override
    public int recordPurged(Collection<String> keys, Instant at) {
        return changeState(purgedSql, "purge", keys, at);
    }

    private int changeState(String sql, String change, Collection<String> keys, Instant at) {
        Objects.requireNonNull(at, "at");
        List<String> keyList = List.copyOf(keys);
        if (keyList.isEmpty()) {
            return 0;
        }
        return withHandle("could not record the " + change + " of " + keyList.size() + " dead letters",
                handle -> handle.createUpdate(sql)
                        .bindArray("keys", String.class, keyList)
                        .bind("at", LedgerTransactions.utc(at))
                        .execute());
    }

    @Override
    public Optional<JobOutcome> find(String key) {
        Objects.requireNonNull(key, "key");
        return withHandle("could not look up job " + key, handle -> table.find(handle, key));
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
