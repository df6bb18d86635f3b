package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.domain.DueHorizon;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OutboxTest {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static PostgresAdapter adapter;

    @BeforeAll
    static void open() {
        adapter = PostgresAdapter.open(SCHEMA.config(), Clock.fixed(NOW, ZoneOffset.UTC));
        SCHEMA.jdbi().useHandle(handle -> handle.execute("CREATE TABLE " + SCHEMA.name()
                + ".shop_orders (job_id text PRIMARY KEY)"));
    }

    @AfterAll
    static void close() {
        adapter.close();
    }

    @Test
    void anEnqueueAppearsOnCommitAndLeavesTheConnectionToTheCaller() throws SQLException {
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            adapter.outbox().enqueue(producer, EnqueueJobUseCase.Command.now(QueueName.of("orders"),
                    JobId.of("commit-1"), "{\"order\":1}"));

            assertThat(outboxRows("commit-1")).isZero();
            assertThat(producer.isClosed()).isFalse();
            assertThat(producer.getAutoCommit()).isFalse();
            producer.commit();
        }
        assertThat(outboxRows("commit-1")).isOne();
    }

    @Test
    void aRolledBackEnqueueLeavesNothing() throws SQLException {
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            adapter.outbox().enqueue(producer, EnqueueJobUseCase.Command.now(QueueName.of("orders"),
                    JobId.of("rollback-1"), "{}"));
            producer.rollback();
        }
        assertThat(outboxRows("rollback-1")).isZero();
    }

    @Test
    void aBulkEnqueueKeepsEachJobsTypeDueTimeAndHeadersInOrder() throws SQLException {
        EnqueueJobUseCase.Command plain = EnqueueJobUseCase.Command.now(QueueName.of("mail"), JobId.of("bulk-1"), "a");
        EnqueueJobUseCase.Command rich = new EnqueueJobUseCase.Command(QueueName.of("mail"), JobId.of("bulk-2"),
                Optional.of("welcome"), "b", Map.of("tenant", "acme", "lang", "fr"),
                Optional.empty(), Optional.of(Duration.ofMinutes(5)));
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            adapter.outbox().enqueueAll(producer, new EnqueueJobsUseCase.Command(List.of(plain, rich)));
            producer.commit();
        }

        assertThat(rowsOf("bulk-%")).containsExactly("bulk-1 mail - a {} - true",
                        "bulk-2 mail welcome b {\"lang\": \"fr\", \"tenant\": \"acme\"} 2026-12-01 10:05:00+00 true");
    }

    /** One job is written by a statement of its own (a single-row insert): it keeps every value as the bulk one. */
    @Test
    void aSingleEnqueueKeepsTheJobsTypeDueTimeAndHeaders() throws SQLException {
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            adapter.outbox().enqueue(producer, new EnqueueJobUseCase.Command(QueueName.of("mail"), JobId.of("one-1"),
                    Optional.of("welcome"), "b", Map.of("tenant", "acme", "lang", "fr"), Optional.empty(),
                    Optional.of(Duration.ofMinutes(5))));
            adapter.outbox().enqueue(producer, EnqueueJobUseCase.Command.now(QueueName.of("mail"), JobId.of("one-2"),
                    "a"));
            producer.commit();
        }

        assertThat(rowsOf("one-%")).containsExactly(
                "one-1 mail welcome b {\"lang\": \"fr\", \"tenant\": \"acme\"} 2026-12-01 10:05:00+00 true",
                "one-2 mail - a {} - true");
    }

    /** The outbox's rows whose job id is like {@code pattern}, in order, each as its values in one line. */
    private static List<String> rowsOf(String pattern) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT job_id || ' ' || queue || ' '"
                + " || coalesce(type, '-') || ' ' || payload || ' ' || headers::text || ' ' || coalesce(due_at::text,"
                + " '-') || ' ' || (enqueued_at = :now) FROM " + SCHEMA.name() + ".job_outbox"
                + " WHERE job_id LIKE :pattern ORDER BY position").bind("now", NOW).bind("pattern", pattern)
                .mapTo(String.class).list());
    }

    @Test
    void anOversizedPayloadIsRefusedBeforeAnyRowIsWritten() throws SQLException {
        EnqueueJobUseCase.Command big = EnqueueJobUseCase.Command.now(QueueName.of("orders"), JobId.of("big-2"),
                "x".repeat(1024 * 1024 + 1));
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            assertThatThrownBy(() -> adapter.outbox().enqueueAll(producer, new EnqueueJobsUseCase.Command(List.of(
                    EnqueueJobUseCase.Command.now(QueueName.of("orders"), JobId.of("big-1"), "{}"), big))))
                    .isInstanceOf(InvalidValueException.class).hasMessageContaining("more than the limit of 1048576");
            producer.commit();
        }
        assertThat(outboxRows("big-1")).isZero();
    }

    @Test
    void aDueTimeBeyondTheHorizonIsRefusedBeforeAnyRowIsWritten() throws SQLException {
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            assertThatThrownBy(() -> adapter.outbox().enqueueAll(producer, new EnqueueJobsUseCase.Command(List.of(
                    EnqueueJobUseCase.Command.now(QueueName.of("orders"), JobId.of("far-1"), "{}"),
                    EnqueueJobUseCase.Command.now(QueueName.of("orders"), JobId.of("far-2"), "{}")
                            .at(NOW.plus(DueHorizon.MAX_AHEAD).plusSeconds(1))))))
                    .isInstanceOf(InvalidValueException.class).hasMessageContaining("more than 10 years");
            producer.commit();
        }
        assertThat(outboxRows("far-1")).isZero();
    }

    @Test
    void aJdbiHandleEnqueuesInItsTransaction() {
        SCHEMA.jdbi().useTransaction(handle -> adapter.outbox().enqueue(handle,
                EnqueueJobUseCase.Command.now(QueueName.of("orders"), JobId.of("handle-1"), "{}")));
        assertThat(outboxRows("handle-1")).isOne();
    }

    @Nested
    class ThroughTheSqlFunction {
        @Test
        void itEnqueuesInTheCallersTransactionWhateverItsSearchPath() throws SQLException {
            try (Connection producer = connection()) {
                producer.setAutoCommit(false);
                producer.createStatement().execute("SET search_path TO public");
                try (PreparedStatement call = producer.prepareStatement("SELECT " + SCHEMA.name()
                        + ".enqueue('orders', 'sql-1', '{}', 'ship', now() + interval '1 hour', '{\"a\": \"b\"}')")) {
                    call.execute();
                }
                assertThat(outboxRows("sql-1")).isZero();
                producer.commit();
            }
            assertThat(outboxRows("sql-1")).isOne();
        }

        /**
         * Each bad call comes after an order row and a good enqueue in the same transaction: the error is the caller's
         * to handle, its transaction rolls back whole, and the connection stays usable.
         */
        @Test
        void badInputRaisesAClearErrorTheCallerMayRollBackLeavingNothing() throws SQLException {
            assertSqlError("'bad queue!', 'id-1', '{}'", "22023", "queue name 'bad queue!' is invalid");
            assertSqlError("'-orders', 'id-1', '{}'", "22023", "queue name '-orders' is invalid");
            assertSqlError("repeat('q', 101), 'id-1', '{}'", "22023", "is invalid: use 1..100 letters");
            assertSqlError("NULL, 'id-1', '{}'", "22023", "queue name NULL is invalid");
            assertSqlError("'orders', '', '{}'", "22023", "job id '' is invalid");
            assertSqlError("'orders', E'a\\nb', '{}'", "22023", "job id");
            assertSqlError("'orders', repeat('j', 257), '{}'", "22023", "must have 1..256 UTF-16 characters");
            // 129 emoji are 129 code points but 258 UTF-16 chars, as Java counts them
            assertSqlError("'orders', repeat(U&'\\+01F600', 129), '{}'", "22023", "counts 2), got 258");
            assertSqlError("'orders', U&'id\\0378', '{}'", "22023", "holds a control character or an unassigned");
            assertSqlError("'orders', U&'id\\0085', '{}'", "22023", "holds a control character or an unassigned");
            assertSqlError("'orders', NULL, '{}'", "22023", "job id NULL is invalid");
            assertSqlError("'orders', 'id-2', repeat('x', 1048577)", "54000",
                    "payload has 1048577 bytes, more than the limit of 1048576");
            assertSqlError("'orders', 'id-2', NULL", "22023", "payload is required");
            assertSqlError("'orders', 'id-3', '{}', headers => '{\"n\": 1}'", "22023",
                    "headers must be a JSON object of strings");
            assertSqlError("'orders', 'id-4', '{}', type => ' '", "22023", "job type must be");
            assertSqlError("'orders', 'id-4', '{}', type => U&'\\3000\\2003'", "22023", "job type must be");
            assertSqlError("'orders', 'id-4', '{}', type => repeat(U&'\\+01F600', 101)", "22023", "job type must be");
            assertSqlError("'orders', 'id-4', '{}', type => U&'ship\\FFFF'", "22023", "job type must be");
            assertSqlError("'orders', 'id-5', '{}', headers => '{\"a\": \"b\", \"payload\": \"x\"}'", "22023",
                    "header 'payload' is a field of Baton's wire protocol");
            assertSqlError("'orders', 'id-5', '{}', headers => '{\"dead_reason\": \"x\"}'", "22023",
                    "header 'dead_reason' is a field of Baton's wire protocol");
            assertSqlError("'orders', 'id-5', '{}', headers => '{\"unique_key\": \"k\"}'", "22023",
                    "header 'unique_key' is reserved for a uniqueness key");
        }

        @Test
        void dueTimesThatAreNoTimeOrBeyondTheHorizonAreRefused() throws SQLException {
            assertSqlError("'orders', 'due-1', '{}', due_at => 'infinity'", "22023",
                    "due_at infinity is no time: give one at most 10 years (3653 days) ahead, or NULL for now");
            assertSqlError("'orders', 'due-2', '{}', due_at => '-infinity'", "22023", "due_at -infinity is no time");
            assertSqlError("'orders', 'due-3', '{}', due_at => now() + interval '3653 days 1 second'", "22023",
                    "is more than 10 years (3653 days) ahead: the latest allowed now is");
            assertSqlError("'orders', 'due-4', '{}', due_at => '294276-01-01T00:00:00Z'", "22023",
                    "due time 294276-01-01T00:00:00.000Z is more than 10 years");
        }

        @Test
        void headerNamesThatAreNoTokenAreRefusedShownEscaped() throws SQLException {
            assertSqlError("'orders', 'hn-1', '{}', headers => '{\"\": \"v\"}'", "22023",
                    "header name \"\" is invalid: use 1..128 letters, digits or !#$%&'*+-.^_`|~ (an RFC 7230 token)");
            assertSqlError("'orders', 'hn-2', '{}', headers => '{\"bad\\nname\": \"v\"}'", "22023",
                    "header name \"bad\\nname\" is invalid");
            assertSqlError("'orders', 'hn-3', '{}', headers => '{\"two words\": \"v\"}'", "22023",
                    "header name \"two words\" is invalid");
            assertSqlError("'orders', 'hn-4', '{}', headers => jsonb_build_object(repeat('h', 129), 'v')", "22023",
                    "is invalid: use 1..128 letters");
        }

        /** Java's limits are the function's: what the relay publishes, the function accepts. */
        @Test
        void whatJavaAcceptsAtItsLimitsItAcceptsToo() throws SQLException {
            try (Connection producer = connection()) {
                producer.setAutoCommit(false);
                producer.createStatement().execute("SELECT " + SCHEMA.name() + ".enqueue('orders', "
                        + "repeat(U&'\\+01F600', 128), '{}', type => repeat(U&'\\+01F69A', 100), headers => "
                        + "'{\"traceparent\": \"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\", "
                        + "\"partition_key\": \"p\", \"unique_for_ms\": \"5\", \"" + "h".repeat(128)
                        + "\": \"\"}', due_at => now() + interval '3652 days')");
                producer.commit();
            }
            String emoji = "\uD83D\uDE00".repeat(128);
            assertThat(JobId.of(emoji).value()).hasSize(JobId.MAX_LENGTH);
            assertThat(outboxRows(emoji)).isOne();
        }

        /**
         * Java's {@code Text.printable} and the function's {@code outbox_printable} answer alike for every code point
         * of the Basic Multilingual Plane (PostgreSQL text holds no NUL, nor surrogates): the function's ranges are the
         * JDK's.
         */
        @Test
        void itFindsTheUnprintableCharactersJavaFinds() {
            List<Integer> refusedBySql = SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT c FROM "
                    + "generate_series(1, 65535) AS c WHERE c NOT BETWEEN 55296 AND 57343 AND NOT " + SCHEMA.name()
                    + ".outbox_printable(chr(c)) ORDER BY c").mapTo(Integer.class).list());
            List<Integer> refusedByJava = IntStream.rangeClosed(1, 0xFFFF)
                    .filter(c -> !Character.isSurrogate((char) c) && !isJobId(String.valueOf((char) c)))
                    .boxed().toList();
            assertThat(refusedByJava).hasSizeGreaterThan(1000);
            // the function's table is Java 17's Unicode; a newer JDK assigns more characters, which the function still
            // refuses: it never accepts what a Java relay refuses
            assertThat(refusedBySql).containsAll(refusedByJava);
            if (Runtime.version().feature() == 17) {
                assertThat(refusedBySql).isEqualTo(refusedByJava);
            }
        }

        /**
         * The function cannot know which queues workers serve (that is their configuration, not the schema's): a
         * well-formed name is a queue, which exists once a job is published to it, as with a direct enqueue.
         */
        @Test
        void aWellFormedQueueNameNoWorkerServesIsAccepted() throws SQLException {
            try (Connection producer = connection()) {
                producer.setAutoCommit(false);
                producer.createStatement().execute("SELECT " + SCHEMA.name()
                        + ".enqueue('nobody-serves-this', 'q-1', '{}')");
                producer.commit();
            }
            assertThat(outboxRows("q-1")).isOne();
        }
    }

    private static boolean isJobId(String value) {
        try {
            JobId.of(value);
            return true;
        } catch (InvalidValueException e) {
            return false;
        }
    }

    @Test
    void aSavepointRollbackLetsTheTransactionCommitItsOtherRows() throws SQLException {
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            order(producer, "sp-1");
            Savepoint beforeTheBadCall = producer.setSavepoint();
            assertThatThrownBy(() -> producer.createStatement().execute("SELECT " + SCHEMA.name()
                    + ".enqueue('orders', 'sp-bad', repeat('x', 1048577))"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("54000"));
            producer.rollback(beforeTheBadCall);
            order(producer, "sp-2");
            producer.commit();
        }
        assertThat(outboxRows("sp-1")).isOne();
        assertThat(outboxRows("sp-2")).isOne();
        assertThat(outboxRows("sp-bad")).isZero();
        assertThat(orders("sp-1")).isOne();
        assertThat(orders("sp-2")).isOne();
    }

    private static void assertSqlError(String arguments, String sqlState, String message) throws SQLException {
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            order(producer, "before-the-error");
            assertThatThrownBy(() -> producer.createStatement().execute(
                    "SELECT " + SCHEMA.name() + ".enqueue(" + arguments + ")"))
                    .isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getSQLState()).isEqualTo(sqlState))
                    .hasMessageContaining(message);
            producer.rollback();
            // the connection is still the caller's and usable
            producer.createStatement().execute("SELECT 1");
        }
        assertThat(outboxRows("before-the-error")).as("the good enqueue before " + arguments).isZero();
        assertThat(orders("before-the-error")).as("the producer's row before " + arguments).isZero();
    }

    /** What a producer writes with its job: an order row of its own, and the job, in its open transaction. */
    private static void order(Connection producer, String jobId) throws SQLException {
        try (PreparedStatement insert = producer.prepareStatement("INSERT INTO " + SCHEMA.name()
                + ".shop_orders (job_id) VALUES (?)");
             PreparedStatement enqueue = producer.prepareStatement("SELECT " + SCHEMA.name()
                     + ".enqueue('orders', ?, '{}')")) {
            insert.setString(1, jobId);
            insert.executeUpdate();
            enqueue.setString(1, jobId);
            enqueue.execute();
        }
    }

    private static long orders(String jobId) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT count(*) FROM " + SCHEMA.name()
                + ".shop_orders WHERE job_id = :id").bind("id", jobId).mapTo(Long.class).one());
    }

    private static long outboxRows(String jobId) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT count(*) FROM " + SCHEMA.name()
                + ".job_outbox WHERE job_id = :id").bind("id", jobId).mapTo(Long.class).one());
    }

    private static Connection connection() throws SQLException {
        return DriverManager.getConnection(SCHEMA.jdbcUrl());
    }
}
