package dev.baton.adapters.postgres;

import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeQuery;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * The ledger search of {@code job_outcomes}: one statement per page, keyset-paged on the outcome's time and key, in
 * the order of the indexes of {@code V6__outcome_search.sql} (queue, state, time, key), so that a page reads as many
 * index entries as it shows. An outcome's time is {@code completed_at} for a completion and {@code state_changed_at}
 * otherwise; the error text is matched with {@code ILIKE}, which the trigram index serves when pg_trgm is installed.
 */
final class OutcomeSearch {
    /** The outcome's time, written as the indexes write it. */
    static final String AT = "COALESCE(completed_at, state_changed_at)";
    /** Keys compare byte-wise, as Java compares them, whatever the database's collation. */
    private static final String KEY = "job_id COLLATE \"C\"";

    private static final OutcomeMapper MAPPER = new OutcomeMapper();

    private final String table;

    OutcomeSearch(String table) {
        this.table = table;
    }

    List<JobOutcome> search(Handle handle, OutcomeQuery query, int limit) {
        StringBuilder sql = new StringBuilder("SELECT ").append(OutcomeMapper.COLUMNS).append(" FROM ").append(table)
                .append(" WHERE queue = :queue");
        query.state().ifPresent(state -> sql.append(" AND state = :state"));
        query.reason().ifPresent(reason -> sql.append(" AND reason = :reason"));
        query.from().ifPresent(from -> sql.append(" AND ").append(AT).append(" >= :from"));
        query.to().ifPresent(to -> sql.append(" AND ").append(AT).append(" < :to"));
        query.errorText().ifPresent(text -> sql.append(" AND error_message ILIKE :pattern ESCAPE '\\'"));
        query.before().ifPresent(cursor -> sql.append(" AND (").append(AT).append(", ").append(KEY)
                .append(") < (:beforeAt, :beforeKey)"));
        sql.append(" ORDER BY ").append(AT).append(" DESC, ").append(KEY).append(" DESC LIMIT :limit");
        Query statement = handle.createQuery(sql.toString())
                .bind("queue", query.queue().value())
                .bind("limit", limit);
        query.state().ifPresent(state -> statement.bind("state", state.label()));
        query.reason().ifPresent(reason -> statement.bind("reason", reason.name()));
        query.from().ifPresent(from -> statement.bind("from", LedgerTransactions.utc(from)));
        query.to().ifPresent(to -> statement.bind("to", LedgerTransactions.utc(to)));
        query.errorText().ifPresent(text -> statement.bind("pattern", "%" + escaped(text) + "%"));
        query.before().ifPresent(cursor -> statement.bind("beforeAt", LedgerTransactions.utc(cursor.at()))
                .bind("beforeKey", cursor.key()));
        return statement.map(MAPPER).list();
    }

    long countCompletedSince(Handle handle, QueueName queue, Instant since) {
        return handle.createQuery("SELECT count(*) FROM " + table + " WHERE queue = :queue AND state = 'completed'"
                        + " AND " + AT + " >= :since")
                .bind("queue", queue.value())
                .bind("since", LedgerTransactions.utc(since))
                .mapTo(Long.class)
                .one();
    }

    /** The text as a {@code LIKE} pattern matching it literally: its wildcards escaped. */
    private static String escaped(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
