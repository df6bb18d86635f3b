package dev.baton.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Jobs enqueued in PostgreSQL transactions reach the worker through its relay; rolled-back ones never run. */
class OutboxEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final QueueName queue = QueueName.of(TestEndpoints.unique("outbox").replace('_', '-'));
    private final BatonConfig config = BatonScenarioTest.threeQuickAttempts("outbox");
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    @Test
    void committedJobsRunOnceThroughTheWorkersRelayRolledBackOnesNeverAndTheOutboxEmpties() throws SQLException {
        try (Baton baton = countingRuns()) {
            baton.start(queue.value());

            enqueueWithSql("sql-1", true);
            enqueueWithSql("sql-2", false);
            try (Connection producer = DriverManager.getConnection(TestEndpoints.jdbcUrl())) {
                producer.setAutoCommit(false);
                baton.outbox().enqueue(producer, EnqueueJobUseCase.Command.now(queue, JobId.of("java-1"), "{}"));
                producer.commit();
            }

            await().atMost(WAIT).until(() -> runs.containsKey("sql-1") && runs.containsKey("java-1"));
            await().atMost(WAIT).until(() -> outboxRows() == 0);
            assertThat(runs).containsOnlyKeys("sql-1", "java-1");
            assertThat(runs.values()).allSatisfy(count -> assertThat(count).hasValue(1));
        }
    }

    /**
     * A row that cannot be published (a header named like a field of Baton's wire protocol), written by a client that
     * bypasses the function, is dead-lettered MALFORMED with its reason, among good rows claimed in the same batch:
     * those run.
     */
    @Test
    void aRowThatCannotBePublishedIsMarkedMalformedAndTheRowsOfItsBatchStillRun() throws SQLException {
        try (Baton baton = countingRuns()) {
            baton.migrate();
            enqueueWithSql("batch-1", true);
            insertBypassingTheFunction("bad-header", "{\"job_id\": \"someone-else\"}");
            enqueueWithSql("batch-2", true);
            // the relay starts with the worker: the three rows are one batch
            baton.start(queue.value());

            await().atMost(WAIT).until(() -> runs.containsKey("batch-1") && runs.containsKey("batch-2"));
            assertThat(malformed("bad-header")).contains("header 'job_id' is a field of Baton's wire protocol");
            await().atMost(WAIT).until(() -> outboxRows() == 1);
            assertThat(runs).containsOnlyKeys("batch-1", "batch-2");
        }
    }

    private Baton countingRuns() {
        return Baton.builder().config(config).redis(TestEndpoints.redisUri())
                .postgres(TestEndpoints.jdbcUrl()).handler(queue.value(), context -> {
                    runs.computeIfAbsent(context.job().id().value(), key -> new AtomicInteger()).incrementAndGet();
                    return Optional.empty();
                }).build();
    }

    private void enqueueWithSql(String jobId, boolean commit) throws SQLException {
        try (Connection producer = DriverManager.getConnection(TestEndpoints.jdbcUrl())) {
            producer.setAutoCommit(false);
            try (PreparedStatement enqueue = producer.prepareStatement("SELECT " + config.schema()
                    + ".enqueue(?, ?, '{}')")) {
                enqueue.setString(1, queue.value());
                enqueue.setString(2, jobId);
                enqueue.execute();
            }
            if (commit) {
                producer.commit();
            } else {
                producer.rollback();
            }
        }
    }

    private void insertBypassingTheFunction(String jobId, String headers) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + config.schema()
                     + ".job_outbox (queue, job_id, payload, headers) VALUES (?, ?, '{}', ?::jsonb)")) {
            insert.setString(1, queue.value());
            insert.setString(2, jobId);
            insert.setString(3, headers);
            insert.executeUpdate();
        }
    }

    private String malformed(String jobId) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement select = connection.prepareStatement("SELECT malformed FROM " + config.schema()
                     + ".job_outbox WHERE job_id = ?")) {
            select.setString(1, jobId);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private long outboxRows() throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM " + config.schema()
                     + ".job_outbox")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
