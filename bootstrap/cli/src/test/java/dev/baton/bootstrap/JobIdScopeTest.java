package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.baton.application.handler.JobContext;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.application.port.in.ListPartitionsUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.cli.Main;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * A job id is unique within its queue (docs/HANDLERS.md#job-ids), on real Redis and PostgreSQL, through every way a
 * job comes in: the same id on two queues runs on each, once; the same id twice on one queue runs once. Another job
 * under the id of a completed one of its queue is not run, and never silently: a WARN names both, a meter counts it.
 */
class JobIdScopeTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The handler of untyped jobs; typed ones run under the handler of their type. */
    private static final String RECORDER = "recorder";
    private static final JobType<Order> SHIP = JobType.of("ship-order", Order.class);
    private static final JobType<Order> MAIL = JobType.of("send-mail", Order.class);
    private static final BatonConfig CONFIG = BatonScenarioTest.threeQuickAttempts("scope");
    private static Baton baton;

    record Order(String orderId) {
    }

    /** Puts these jobs on their queues, by one way in. */
    @FunctionalInterface
    interface Producer {
        void enqueue(List<EnqueueJobUseCase.Command> jobs) throws Exception;
    }

    @BeforeAll
    static void startBaton() throws SQLException {
        baton = Baton.builder().config(CONFIG).set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl())
                .handler(RECORDER, JobIdScopeTest::record)
                .handler(SHIP, (order, context) -> record(context))
                .handler(MAIL, (order, context) -> record(context))
                .build();
        baton.migrate();
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl())) {
            connection.createStatement().execute("CREATE TABLE " + CONFIG.get(SCHEMA)
                    + ".job_runs (queue text NOT NULL,"
                    + " job_id text NOT NULL, type text)");
        }
    }

    @AfterAll
    static void closeBaton() {
        baton.close();
    }

    static Stream<Arguments> producers() {
        return Stream.of(
                arguments("Baton.enqueue", (Producer) jobs -> jobs.forEach(job -> baton.enqueue(job))),
                arguments("Baton.enqueue of a typed job", (Producer) jobs -> jobs.forEach(job ->
                        baton.enqueue(SHIP, job.queue(), job.id(), new Order(job.id().value())))),
                arguments("Baton.enqueueUnique", (Producer) JobIdScopeTest::enqueueUnique),
                arguments("Baton.enqueueAll", (Producer) jobs -> baton.enqueueAll(jobs)),
                arguments("EnqueueRoute.OUTBOX",
                        (Producer) jobs -> jobs.forEach(job -> baton.enqueue(job, EnqueueRoute.OUTBOX))),
                arguments("the outbox on a connection", (Producer) JobIdScopeTest::enqueueOnAConnection),
                arguments("the outbox on a Jdbi handle", (Producer) jobs -> Jdbi.create(TestEndpoints.jdbcUrl())
                        .useTransaction(handle -> baton.outbox().enqueueAll(handle,
                                new EnqueueJobsUseCase.Command(jobs)))),
                arguments("the SQL function enqueue(...)", (Producer) JobIdScopeTest::enqueueWithSql),
                arguments("baton enqueue", (Producer) jobs -> jobs.forEach(job -> cli("enqueue", "--queue",
                        job.queue().value(), "--job-id", job.id().value(), "--payload", "{}"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void theSameIdRunsOnceOnEachOfTwoQueues(String way, Producer producer) throws Exception {
        QueueName ship = queue("ship");
        QueueName email = queue("email");
        JobId id = JobId.of("order-1001");

        producer.enqueue(List.of(now(ship, id), now(email, id), now(ship, id)));
        RunningWorker worker = start(ship, email);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2 && worker.counters().duplicates() == 1);
        assertThat(runs(ship, id)).isOne();
        assertThat(runs(email, id)).isOne();
        assertThat(baton.job(email.value(), id.value())).isInstanceOf(Whereabouts.Completed.class);
        worker.stop(Duration.ofSeconds(5));
    }

    /** Partitions share their queue's scope: the same id in two partitions is one job, which runs once. */
    @Test
    void theSameIdInTwoPartitionsOfOneQueueRunsOnce() throws SQLException {
        QueueName partitioned = queue("parts");
        QueueName email = queue("email");
        JobId id = JobId.of("order-1001");
        assertThat(cli("queue", "declare", partitioned.value(), "--partitions", "4")).contains("4 partitions");

        // crc32("a") % 4 = 3, crc32("b") % 4 = 1: two partitions
        baton.enqueue(routed(partitioned, id, "a"));
        baton.enqueue(routed(partitioned, id, "b"));
        baton.enqueue(now(email, id));
        assertThat(baton.use(ListPartitionsUseCase.class).partitions(new ListPartitionsUseCase.Command(partitioned)))
                .extracting(PartitionStats::length).containsExactlyInAnyOrder(0L, 1L, 0L, 1L);
        RunningWorker worker = start(partitioned, email);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 2 && worker.counters().duplicates() == 1);
        assertThat(runs(partitioned, id)).isOne();
        assertThat(runs(email, id)).isOne();
        worker.stop(Duration.ofSeconds(5));
    }

    @Test
    void anotherTypeUnderACompletedJobsIdIsNotRunButWarnedAndCounted() throws SQLException {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger acknowledgements = (Logger) LoggerFactory.getLogger(
                "dev.baton.application.service.worker.AcknowledgedHandOvers");
        log.start();
        acknowledgements.addAppender(log);
        QueueName orders = queue("orders");
        JobId id = JobId.of("order-1001");
        try {
            baton.enqueue(SHIP, orders, id, new Order("1001"));
            RunningWorker worker = start(orders);
            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
            baton.enqueue(MAIL, orders, id, new Order("1001"));

            await().atMost(WAIT).until(() -> worker.counters().duplicates() == 1);
            assertThat(runs(orders, id)).isOne();
            assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN).singleElement()
                    .extracting(ILoggingEvent::getFormattedMessage).asString().contains(
                            "job id collision: job order-1001 of queue " + orders + " (type send-mail) was not run",
                            "duplicate of job order-1001 of queue " + orders + " (type ship-order)");
            assertThat(baton.use(MeterRegistry.class).get("baton.jobs.id.collisions")
                    .tag("queue", orders.value()).counter().count()).isEqualTo(1.0);
            worker.stop(Duration.ofSeconds(5));
        } finally {
            acknowledgements.detachAppender(log);
        }
    }

    private static RunningWorker start(QueueName... queues) {
        return baton.start(new RunWorkerUseCase.Command(List.of(queues), Baton.defaultConsumer(), 4,
                Optional.of(RECORDER)));
    }

    /** A committed run leaves a row, written in the job's transaction: a run rolled back leaves none. */
    private static Optional<String> record(JobContext context) throws SQLException {
        try (PreparedStatement insert = context.unwrap(Connection.class).prepareStatement("INSERT INTO "
                + CONFIG.get(SCHEMA) + ".job_runs (queue, job_id, type) VALUES (?, ?, ?)")) {
            insert.setString(1, context.job().queue().value());
            insert.setString(2, context.job().id().value());
            insert.setString(3, context.job().type().orElse(null));
            insert.executeUpdate();
        }
        return Optional.empty();
    }

    private static long runs(QueueName queue, JobId id) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM " + CONFIG.get(SCHEMA)
                     + ".job_runs WHERE queue = ? AND job_id = ?")) {
            count.setString(1, queue.value());
            count.setString(2, id.value());
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** Uniqueness keys are per queue too: the second job holds the same key on its own queue. */
    private static void enqueueUnique(List<EnqueueJobUseCase.Command> jobs) {
        for (int i = 0; i < jobs.size(); i++) {
            Uniqueness key = Uniqueness.of(i < 2 ? "order-key" : "order-key-again");
            assertThat(baton.enqueueUnique(jobs.get(i), key))
                    .isInstanceOf(EnqueueUniqueJobUseCase.Outcome.Enqueued.class);
        }
    }

    private static void enqueueOnAConnection(List<EnqueueJobUseCase.Command> jobs) throws SQLException {
        try (Connection producer = DriverManager.getConnection(TestEndpoints.jdbcUrl())) {
            producer.setAutoCommit(false);
            for (EnqueueJobUseCase.Command job : jobs) {
                baton.outbox().enqueue(producer, job);
            }
            producer.commit();
        }
    }

    private static void enqueueWithSql(List<EnqueueJobUseCase.Command> jobs) throws SQLException {
        try (Connection producer = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             PreparedStatement enqueue = producer.prepareStatement("SELECT " + CONFIG.get(SCHEMA)
                     + ".enqueue(?, ?, '{}')")) {
            producer.setAutoCommit(false);
            for (EnqueueJobUseCase.Command job : jobs) {
                enqueue.setString(1, job.queue().value());
                enqueue.setString(2, job.id().value());
                enqueue.execute();
            }
            producer.commit();
        }
    }

    /** {@code baton ...} in this JVM, on the same servers and schema. @return what it printed */
    private static String cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(), "BATON_JDBC_URL",
                        TestEndpoints.jdbcUrl(), "BATON_SCHEMA", CONFIG.get(SCHEMA), "BATON_ADMIN_ADDRESS", "off"),
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).as("baton %s: %s", String.join(" ", args), err.toString(StandardCharsets.UTF_8)).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static EnqueueJobUseCase.Command now(QueueName queue, JobId id) {
        return EnqueueJobUseCase.Command.now(queue, id, "{}");
    }

    /** A job routed by its partition key (QueueLayout.PARTITION_KEY). */
    private static EnqueueJobUseCase.Command routed(QueueName queue, JobId id, String partitionKey) {
        return new EnqueueJobUseCase.Command(queue, id, Optional.empty(), "{}", Map.of("partition_key", partitionKey),
                Optional.empty(), Optional.empty());
    }

    private static QueueName queue(String prefix) {
        return QueueName.of(TestEndpoints.unique(prefix).replace('_', '-'));
    }
}
