package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.port.out.JobPublisher;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import java.sql.SQLException;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * Publishes through the outbox: each call writes its jobs' rows in one statement, a short transaction of its own on
 * the adapter's pool, and returns once it committed. The commit wakes the relays ({@code NOTIFY}), and one of them
 * publishes the jobs to the transport: this class never touches it, so no transaction waits on Redis and no job is
 * published twice by a healthy relay. Unique jobs are refused: their key is checked atomically in the transport.
 */
final class OutboxPublisher implements JobPublisher {
    private final Jdbi jdbi;
    private final JdbcOutbox rows;

    OutboxPublisher(Jdbi jdbi, JdbcOutbox rows) {
        this.jdbi = jdbi;
        this.rows = rows;
    }

    @Override
    public void publish(Job job) {
        publishAll(List.of(job));
    }

    @Override
    public void publishAll(List<Job> jobs) {
        try {
            jdbi.useHandle(handle -> rows.insert(handle.getConnection(), jobs));
        } catch (JdbiException | SQLException e) {
            throw unavailable("could not enqueue " + jobs.size() + " jobs into the outbox", e);
        }
    }

    /** @throws UnsupportedOperationException always: dead letters live in the transport, which the relay writes */
    @Override
    public void deadLetterUnpublished(DeadLetter letter, String origin) {
        throw new UnsupportedOperationException("the outbox keeps no dead letters: the relay writes them to the "
                + "transport");
    }

    /** @throws UnsupportedOperationException always: a unique job's key lives in the transport */
    @Override
    public JobId publishUnique(Job job) {
        throw new UnsupportedOperationException("a unique job cannot be enqueued through the outbox: its key is "
                + "checked atomically in Redis as it is published; enqueue it directly (EnqueueRoute.DIRECT, see "
                + "docs/RELIABILITY.md#enqueueing-through-the-outbox)");
    }
}
