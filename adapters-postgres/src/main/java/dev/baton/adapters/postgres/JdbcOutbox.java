package dev.baton.adapters.postgres;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.domain.Job;
import dev.baton.domain.PayloadLimit;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The outbox's rows written on the caller's connection in one statement: one job as a single-row
 * {@code INSERT … VALUES} (the plain insert a producer would write), more in one {@code INSERT … SELECT FROM unnest}.
 */
final class JdbcOutbox implements PostgresAdapter.Outbox {
    private final String insertOne;
    private final String insert;
    private final Clock clock;
    private final PayloadLimit payloadLimit;

    JdbcOutbox(String schema, Clock clock, PayloadLimit payloadLimit) {
        this.clock = clock;
        this.payloadLimit = payloadLimit;
        // the schema is spelled out: the caller's connection need not have it on its search_path
        String columns = " INSERT INTO " + schema + ".job_outbox (job_id, queue, type, payload, headers, due_at,"
                + " enqueued_at)";
        this.insertOne = columns + " VALUES (?, ?, ?, ?, jsonb_object(?::text[], ?::text[]), ?::timestamptz,"
                + " ?::timestamptz)";
        this.insert = "WITH jobs AS (SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[],"
                + " ?::timestamptz[]) WITH ORDINALITY AS j(job_id, queue, type, payload, due_at, enqueued_at, n)),"
                + " job_headers AS (SELECT n, jsonb_object_agg(name, value) AS headers"
                + " FROM unnest(?::bigint[], ?::text[], ?::text[]) AS h(n, name, value) GROUP BY n)"
                + columns + " SELECT j.job_id, j.queue, j.type, j.payload, coalesce(h.headers, '{}'), j.due_at,"
                + " j.enqueued_at FROM jobs j LEFT JOIN job_headers h USING (n) ORDER BY j.n";
    }

    @Override
    public Job enqueue(Connection connection, EnqueueJobUseCase.Command command) throws SQLException {
        return enqueueAll(connection, new EnqueueJobsUseCase.Command(List.of(command))).get(0);
    }

    @Override
    public List<Job> enqueueAll(Connection connection, EnqueueJobsUseCase.Command command) throws SQLException {
        Instant now = clock.instant();
        // every job is checked before any row is written
        List<Job> jobs = command.jobs().stream().map(job -> {
            payloadLimit.check(job.payload());
            return job.toJob(now);
        }).toList();
        insert(connection, jobs);
        return jobs;
    }

    /** Writes the rows of these jobs, checked already, in one statement on {@code connection}. */
    void insert(Connection connection, List<Job> jobs) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(jobs.size() == 1 ? insertOne : insert)) {
            if (jobs.size() == 1) {
                bindOne(connection, statement, jobs.get(0));
            } else {
                bind(connection, statement, jobs);
            }
            statement.executeUpdate();
        }
    }

    private static void bindOne(Connection connection, PreparedStatement statement, Job job) throws SQLException {
        statement.setString(1, job.id().value());
        statement.setString(2, job.queue().value());
        statement.setString(3, job.type().orElse(null));
        statement.setString(4, job.payload());
        List<Map.Entry<String, String>> headers = List.copyOf(job.headers().entrySet());
        statement.setArray(5, texts(connection, headers.stream().map(Map.Entry::getKey).toList()));
        statement.setArray(6, texts(connection, headers.stream().map(Map.Entry::getValue).toList()));
        statement.setObject(7, job.notBefore().map(JdbcOutbox::utc).orElse(null));
        statement.setObject(8, utc(job.enqueuedAt()));
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    @Override
    public Job enqueue(Handle handle, EnqueueJobUseCase.Command command) {
        return enqueueAll(handle, new EnqueueJobsUseCase.Command(List.of(command))).get(0);
    }

    @Override
    public List<Job> enqueueAll(Handle handle, EnqueueJobsUseCase.Command command) {
        try {
            return enqueueAll(handle.getConnection(), command);
        } catch (SQLException e) {
            throw new UnableToExecuteStatementException("could not enqueue into the outbox: " + e.getMessage(), e,
                    null);
        }
    }

    private static void bind(Connection connection, PreparedStatement statement, List<Job> jobs)
            throws SQLException {
        List<Long> headerJobs = new ArrayList<>();
        List<String> headerNames = new ArrayList<>();
        List<String> headerValues = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            for (Map.Entry<String, String> header : jobs.get(i).headers().entrySet()) {
                headerJobs.add(i + 1L);
                headerNames.add(header.getKey());
                headerValues.add(header.getValue());
            }
        }
        statement.setArray(1, texts(connection, jobs.stream().map(job -> job.id().value()).toList()));
        statement.setArray(2, texts(connection, jobs.stream().map(job -> job.queue().value()).toList()));
        statement.setArray(3, texts(connection, jobs.stream().map(job -> job.type().orElse(null)).toList()));
        statement.setArray(4, texts(connection, jobs.stream().map(Job::payload).toList()));
        statement.setArray(5, connection.createArrayOf("timestamptz", jobs.stream()
                .map(job -> job.notBefore().map(Timestamp::from).orElse(null)).toArray()));
        statement.setArray(6, connection.createArrayOf("timestamptz", jobs.stream()
                .map(job -> Timestamp.from(job.enqueuedAt())).toArray()));
        statement.setArray(7, connection.createArrayOf("bigint", headerJobs.toArray()));
        statement.setArray(8, texts(connection, headerNames));
        statement.setArray(9, texts(connection, headerValues));
    }

    private static Array texts(Connection connection, List<String> values) throws SQLException {
        return connection.createArrayOf("text", values.toArray());
    }
}
