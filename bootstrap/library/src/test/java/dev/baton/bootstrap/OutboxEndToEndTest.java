package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
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
    void committedJobsRunOnceRolledBackOnesNeverAndTheOutboxEmpties() throws SQLException {
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
     * Rows that cannot be published, written by a client that bypasses the function, among good rows claimed in the
     * same batch: a header named like a field of Baton's wire protocol, an empty job id (both dead-lettered MALFORMED
     * with their reason: in the queue's dead letters and the ledger), an invalid queue name (no queue: marked in the
     * outbox only). The good rows run.
     */
    @Test
    void unpublishableRowsAreDeadLetteredAndTheRestOfTheBatchRuns() throws SQLException {
        try (Baton baton = countingRuns()) {
            baton.migrate();
            enqueueWithSql("batch-1", true);
            insertBypassingTheFunction(queue.value(), "bad-header", "{\"job_id\": \"someone-else\"}");
            insertBypassingTheFunction(queue.value(), "", "{\"tenant\": \"acme\"}");
            insertBypassingTheFunction("no queue!", "no-queue", "{}");
            enqueueWithSql("batch-2", true);
            // the relay starts with the worker: the five rows are one batch
            baton.start(queue.value());

            await().atMost(WAIT).until(() -> runs.containsKey("batch-1") && runs.containsKey("batch-2"));
            assertThat(malformed("bad-header")).contains("header 'job_id' is a field of Baton's wire protocol");
            assertThat(malformed("no-queue")).contains("queue name 'no queue!' is invalid");
            await().atMost(WAIT).until(() -> outboxRows() == 3);
            assertThat(runs).containsOnlyKeys("batch-1", "batch-2");

            List<StoredDeadLetter> dead = baton.use(ListDeadLettersUseCase.class)
                    .list(new ListDeadLettersUseCase.Command(queue, Optional.empty(), 10));
            assertThat(dead).hasSize(2).allSatisfy(stored ->
                    assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.MALFORMED));
            assertThat(dead).anySatisfy(stored -> {
                assertThat(stored.letter().jobId()).contains("bad-header");
                assertThat(stored.letter().lastError().message()).contains("header 'job_id' is a field");
            });
            assertThat(dead).anySatisfy(stored -> {
                assertThat(stored.letter().rawFields()).containsEntry("job_id", "").containsEntry("tenant", "acme");
                assertThat(stored.letter().lastError().message()).contains("job id must have 1..256 characters");
            });
            assertThat(baton.job(queue.value(), "bad-header")).isInstanceOfSatisfying(
                    LocateJobUseCase.Whereabouts.DeadLettered.class, found -> assertThat(found.outcome())
                            .isInstanceOfSatisfying(JobOutcome.Dead.class, outcome -> assertThat(
                                    outcome.record().reason()).isEqualTo(DeadLetterReason.MALFORMED)));
            assertThat(baton.outboxBacklog()).get().satisfies(backlog -> assertThat(backlog.malformed()).isEqualTo(3));
        }
    }

    private Baton countingRuns() {
        return Baton.builder().config(config).set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl()).handler(queue.value(), context -> {
                    runs.computeIfAbsent(context.job().id().value(), key -> new AtomicInteger()).incrementAndGet();
                    return Optional.empty();
                }).build();
    }

    private void enqueueWithSql(String jobId, boolean commit) throws SQLException {
        try (Connection producer = DriverManager.getConnection(TestEndpoints.jdbcUrl())) {
            producer.setAutoCommit(false);
            try (PreparedStatement enqueue = producer.prepareStatement("SELECT " + config.get(SCHEMA)
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

    private void insertBypassingTheFunction(String queueName, String jobId, String headers) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + config.get(SCHEMA)
                     + ".job_outbox (queue, job_id, payload, headers) VALUES (?, ?, '{}', ?::jsonb)")) {
            insert.setString(1, queueName);
            insert.setString(2, jobId);
            insert.setString(3, headers);
            insert.executeUpdate();
        }
    }

    private String malformed(String jobId) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement select = connection.prepareStatement("SELECT malformed FROM " + config.get(SCHEMA)
                     + ".job_outbox WHERE job_id = ?")) {
            select.setString(1, jobId);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private long outboxRows() throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM " + config.get(SCHEMA)
                     + ".job_outbox")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
