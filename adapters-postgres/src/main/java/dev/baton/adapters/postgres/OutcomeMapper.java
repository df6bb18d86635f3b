package dev.baton.adapters.postgres;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.JobError;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.QueueName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/** A {@code job_outcomes} row as the {@link JobOutcome} its state says. */
final class OutcomeMapper implements RowMapper<JobOutcome> {
    static final String COLUMNS = CompletionMapper.COLUMNS
            + ", state, reason, error_type, error_message, dead_at, state_changed_at";

    private static final CompletionMapper COMPLETIONS = new CompletionMapper();

    @Override
    public JobOutcome map(ResultSet rs, StatementContext ctx) throws SQLException {
        String state = rs.getString("state");
        if ("completed".equals(state)) {
            return new JobOutcome.Completed(COMPLETIONS.map(rs, ctx));
        }
        if ("cancelled".equals(state)) {
            return new JobOutcome.Cancelled(rs.getString("job_id"), QueueName.of(rs.getString("queue")),
                    instant(rs, "state_changed_at"));
        }
        DeadLetterRecord record = new DeadLetterRecord(rs.getString("job_id"), QueueName.of(rs.getString("queue")),
                DeadLetterReason.valueOf(rs.getString("reason")),
                JobError.permanent(rs.getString("error_type"), rs.getString("error_message")), rs.getInt("attempt"),
                ConsumerName.of(rs.getString("consumer")), rs.getString("message_id"), instant(rs, "dead_at"));
        Instant changedAt = instant(rs, "state_changed_at");
        return switch (state) {
            case "dead" -> new JobOutcome.Dead(record);
            case "replayed" -> new JobOutcome.Replayed(record, changedAt);
            case "purged" -> new JobOutcome.Purged(record, changedAt);
            default -> throw new IllegalStateException("job " + record.key() + " has an unknown state: " + state);
        };
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }
}
