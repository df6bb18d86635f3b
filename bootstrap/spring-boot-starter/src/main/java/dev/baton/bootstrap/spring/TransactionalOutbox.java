package dev.baton.bootstrap.spring;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLStateSQLExceptionTranslator;

/**
 * Enqueues into Baton's outbox inside the Spring transaction of the calling thread ({@code @Transactional},
 * {@code TransactionTemplate}): on the connection {@link DataSourceUtils} binds to it, so the job runs once that
 * transaction commits and never when it rolls back. Outside a transaction the connection autocommits: the job is
 * committed at once, as through {@code EnqueueRoute.OUTBOX}. A bean of the auto-configuration with a
 * {@code DataSource} (docs/SPRING.md#enqueueing-from-a-transactional-method).
 */
public final class TransactionalOutbox {
    private final Baton baton;
    private final DataSource dataSource;
    private final SQLStateSQLExceptionTranslator translator = new SQLStateSQLExceptionTranslator();

    public TransactionalOutbox(Baton baton, DataSource dataSource) {
        this.baton = Objects.requireNonNull(baton, "baton");
        this.dataSource = Objects.requireNonNull(dataSource, "data source");
    }

    /** Enqueues a job of {@code type} due now in the current transaction. */
    public <T> Job enqueue(JobType<T> type, QueueName queue, JobId jobId, T job) {
        return enqueue(type.command(queue, jobId, job));
    }

    /** Enqueues as {@code command} says, in the current transaction. */
    public Job enqueue(EnqueueJobUseCase.Command command) {
        return enqueueAll(List.of(command)).get(0);
    }

    /** Enqueues the jobs in the current transaction, in one statement. */
    public List<Job> enqueueAll(List<EnqueueJobUseCase.Command> jobs) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            return baton.outbox().enqueueAll(connection, new EnqueueJobsUseCase.Command(jobs));
        } catch (SQLException e) {
            throw Objects.requireNonNull(translator.translate("enqueue into Baton's outbox", null, e));
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }
}
