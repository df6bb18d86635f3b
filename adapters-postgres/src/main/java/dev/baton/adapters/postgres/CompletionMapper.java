package dev.baton.adapters.postgres;

import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/** A completed {@code job_outcomes} row as a {@link Completion}. */
final class CompletionMapper implements RowMapper<Completion> {
    static final String COLUMNS = "job_id, queue, type, attempt, consumer, message_id, result, completed_at";

    @Override
    public Completion map(ResultSet rs, StatementContext ctx) throws SQLException {
        return new Completion(
                JobId.of(rs.getString("job_id")),
                QueueName.of(rs.getString("queue")),
                Optional.ofNullable(rs.getString("type")),
                rs.getInt("attempt"),
                ConsumerName.of(rs.getString("consumer")),
                rs.getString("message_id"),
                Optional.ofNullable(rs.getString("result")),
                rs.getObject("completed_at", OffsetDateTime.class).toInstant());
    }
}
