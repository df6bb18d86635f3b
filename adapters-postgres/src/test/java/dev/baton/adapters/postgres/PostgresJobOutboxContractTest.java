package dev.baton.adapters.postgres;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.testing.JobOutboxContract;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresJobOutboxContractTest extends JobOutboxContract {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private final MutableClock clock = MutableClock.at(T0);
    private PostgresAdapter adapter;

    @Override
    protected JobOutbox createOutbox() {
        adapter = PostgresAdapter.open(SCHEMA.config(), clock);
        SCHEMA.jdbi().useHandle(handle -> handle.execute("DELETE FROM " + SCHEMA.name() + ".job_outbox;"
                + "UPDATE " + SCHEMA.name() + ".job_outbox_epoch SET epoch = NULL"));
        return adapter.jobOutbox();
    }

    @AfterEach
    void close() {
        adapter.close();
    }

    /** Enqueued in a transaction of the test's own, stamped with the job's enqueued-at. */
    @Override
    protected void commit(Job job) {
        clock.set(job.enqueuedAt());
        try (Connection connection = SCHEMA.jdbi().open().getConnection()) {
            connection.setAutoCommit(false);
            adapter.outbox().enqueue(connection, EnqueueJobUseCase.Command.now(job.queue(), job.id(), job.payload()));
            connection.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Completed through the ledger, as a worker completes it. */
    @Override
    protected void end(Job job) {
        adapter.ledger().execute(new ExecutionLedger.Execution(job, ConsumerName.of("w"), new DeliveryId("1-0"), 1,
                T0.plusSeconds(60)), transaction -> Optional.empty());
    }
}
