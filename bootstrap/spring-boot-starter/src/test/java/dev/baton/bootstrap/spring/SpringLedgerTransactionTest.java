package dev.baton.bootstrap.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.examples.InvoiceJobs;
import dev.baton.bootstrap.examples.InvoiceJobs.IssueInvoice;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The auto-configuration against real Redis and PostgreSQL, with docs/SPRING.md's {@link InvoiceJobs}: a handler
 * bean's {@code JdbcTemplate} writes join the ledger's transaction (a failed attempt's insert rolls back, the job's
 * effect commits once), Baton's meters land on the application's registry, the health indicator reports, and closing
 * the context stops the worker gracefully.
 */
class SpringLedgerTransactionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Fails the first send of each order, or every send of an order named "never", the way a mail server might. */
    static final class FlakyMailer implements InvoiceJobs.InvoiceMailer {
        final Map<String, AtomicInteger> sends = new ConcurrentHashMap<>();

        @Override
        public void send(IssueInvoice invoice) throws Exception {
            int send = sends.computeIfAbsent(invoice.orderId(), order -> new AtomicInteger()).incrementAndGet();
            if (invoice.orderId().startsWith("never")) {
                throw new NonRetryableException("no such customer");
            }
            if (send == 1) {
                throw new IllegalStateException("the mail server is busy");
            }
        }
    }

    @Test
    void handlerJdbcWritesCommitOnceWithTheJobAndRollBackOnFailure() {
        String schema = TestEndpoints.unique("spring_ledger");
        String queue = schema.replace('_', '-');
        FlakyMailer mailer = new FlakyMailer();
        try (HikariDataSource dataSource = dataSource()) {
            runner(dataSource, schema, queue).withBean(InvoiceJobs.InvoiceMailer.class, () -> mailer).run(context -> {
                assertThat(context).hasNotFailed();
                Baton baton = context.getBean(Baton.class);
                InvoiceJobs.Invoices invoices = context.getBean(InvoiceJobs.Invoices.class);

                invoices.issue(new IssueInvoice("1001", 4200));
                invoices.issue(new IssueInvoice("never-1002", 990));

                await().atMost(WAIT).until(() -> baton.job(queue, "invoice-1001") instanceof Whereabouts.Completed);
                await().atMost(WAIT).until(() -> isDead(baton.job(queue, "invoice-never-1002")));
                JdbcTemplate jdbc = new JdbcTemplate(dataSource);
                assertThat(mailer.sends.get("1001")).as("the first attempt failed after its insert").hasValue(2);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM " + schema + ".invoices WHERE order_id = '1001'",
                        Integer.class)).as("the failed attempt's insert rolled back, the retry's committed once")
                        .isEqualTo(1);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM " + schema
                        + ".invoices WHERE order_id = 'never-1002'", Integer.class))
                        .as("a dead-lettered job's insert rolled back").isZero();

                MeterRegistry registry = context.getBean(MeterRegistry.class);
                assertThat(registry.get("baton.jobs.completed").tag("queue", queue).counter().count()).isEqualTo(1);
                assertThat(registry.get("baton.jobs.dead.lettered").tag("queue", queue).counter().count())
                        .isEqualTo(1);
                await().atMost(WAIT).untilAsserted(() -> assertThat(registry.find("baton.queue.dead")
                        .tag("queue", queue).gauge()).as("the queue gauges, on the application's registry")
                        .isNotNull().satisfies(gauge -> assertThat(gauge.value()).isEqualTo(1)));
                assertThat(context.getBean(BatonHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
            });
        }
    }

    /** What a {@code @Transactional} service method the handler calls does, without a proxy: the same manager. */
    @Test
    void aHandlersTransactionJoinsTheJobsAndItsFailureFailsTheAttempt() {
        String schema = TestEndpoints.unique("spring_joined");
        String queue = schema.replace('_', '-');
        try (HikariDataSource dataSource = dataSource()) {
            TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            JobHandler handler = context -> {
                String order = context.job().payload();
                transactions.executeWithoutResult(status -> jdbc.update(
                        "INSERT INTO invoices (order_id, cents, job_id) VALUES (?, 1, ?)", order,
                        context.job().id().value()));
                if (order.equals("swallowed") && context.attempt() == 1) {
                    try {
                        transactions.executeWithoutResult(status -> {
                            throw new IllegalStateException("the inner work failed");
                        });
                    } catch (IllegalStateException swallowed) {
                        // the handler carries on, but the job's transaction was marked rollback-only
                    }
                }
                if (order.equals("thrown") && context.attempt() == 1) {
                    throw new IllegalStateException("the attempt fails after the joined transaction ended");
                }
                return Optional.empty();
            };
            runner(dataSource, schema, queue).withBean(queue, JobHandler.class, () -> handler)
                    .withBean(InvoiceJobs.InvoiceMailer.class, () -> invoice -> { })
                    .withPropertyValues("baton.worker.handler=" + queue).run(context -> {
                        Baton baton = context.getBean(Baton.class);
                        baton.enqueue(QueueName.of(queue), JobId.of("thrown-1"), "thrown");
                        baton.enqueue(QueueName.of(queue), JobId.of("swallowed-1"), "swallowed");

                        for (String job : List.of("thrown-1", "swallowed-1")) {
                            await().atMost(WAIT).until(() -> baton.job(queue, job) instanceof Whereabouts.Completed);
                            assertThat(((Whereabouts.Completed) baton.job(queue, job)).completion().attempt())
                                    .as("%s failed its first attempt", job).isEqualTo(2);
                        }
                        assertThat(jdbc.queryForList("SELECT order_id FROM " + schema + ".invoices", String.class))
                                .as("the joined transaction committed with the job, once each")
                                .containsExactlyInAnyOrder("thrown", "swallowed");
                    });
        }
    }

    @Test
    void closingTheContextLetsTheRunningJobFinishWithinTheGrace() throws Exception {
        String schema = TestEndpoints.unique("spring_grace");
        String queue = schema.replace('_', '-');
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        JobHandler slow = context -> {
            started.countDown();
            release.await();
            return Optional.of("finished");
        };
        try (HikariDataSource dataSource = dataSource()) {
            runner(dataSource, schema, queue).withBean(queue, JobHandler.class, () -> slow)
                    .withBean(InvoiceJobs.InvoiceMailer.class, () -> invoice -> { })
                    .withPropertyValues("baton.grace=30s", "baton.worker.handler=" + queue).run(context -> {
                        context.getBean(Baton.class).enqueue(QueueName.of(queue), JobId.of("slow-1"), "{}");
                        assertThat(started.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

                        Thread closing = new Thread(context::close, "closing-the-context");
                        closing.start();
                        // the close waits for the running job (a graceless stop would interrupt it instead)
                        await().atMost(WAIT).until(() -> closing.getState() == Thread.State.WAITING
                                || closing.getState() == Thread.State.TIMED_WAITING);
                        release.countDown();
                        closing.join(WAIT.toMillis());

                        assertThat(closing.isAlive()).isFalse();
                    });
        }
        try (HikariDataSource afterwards = dataSource()) { // the context closed the application's pool too
            assertThat(new JdbcTemplate(afterwards).queryForObject("SELECT result FROM " + schema
                    + ".job_outcomes WHERE job_id = 'slow-1'", String.class)).isEqualTo("finished");
        }
    }

    /** The ledger records the dead letter first: the job's whereabouts say dead-lettered, its dead letter in sight. */
    private static boolean isDead(Whereabouts whereabouts) {
        return whereabouts instanceof Whereabouts.DeadLettered dead
                && dead.sighting().filter(JobSighting.Dead.class::isInstance).isPresent();
    }

    private static ApplicationContextRunner runner(DataSource dataSource, String schema, String queue) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
                .withUserConfiguration(InvoiceJobs.class)
                .withBean(DataSource.class, () -> dataSource)
                .withBean(JdbcTemplate.class, () -> new JdbcTemplate(dataSource))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("baton.redis-uri=" + TestEndpoints.redisUri(), "baton.schema=" + schema,
                        "baton.migrations=classpath:db/invoices", "baton.max-attempts=3",
                        "baton.backoff-initial=10ms", "baton.backoff-max=10ms", "billing.queue=" + queue,
                        "baton.worker.queues=" + queue, "baton.worker.handler=issue-invoice");
    }

    static HikariDataSource dataSource() {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(TestEndpoints.jdbcUrl());
        dataSource.setMaximumPoolSize(4);
        return dataSource;
    }
}
