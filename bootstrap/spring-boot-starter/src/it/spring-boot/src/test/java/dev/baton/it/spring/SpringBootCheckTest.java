package dev.baton.it.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.bootstrap.Baton;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Baton in a Spring Boot 3.5 application, on the versions Boot's dependency management imposes: the application
 * starts, its own Flyway migrates its own schema, the worker of {@code baton.worker.queues} runs jobs whose
 * JdbcTemplate writes are exactly-once, and the health indicator and meters report.
 */
@SpringBootTest(classes = ShopApplication.class)
class SpringBootCheckTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String APP_SCHEMA = "shop_it_" + RUN;
    private static final String BATON_SCHEMA = "baton_it_" + RUN;
    private static final String QUEUE = "shop-it-" + RUN;

    @DynamicPropertySource
    static void endpoints(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> env("BATON_TEST_JDBC_URL",
                "jdbc:postgresql://127.0.0.1:5432/test?user=postgres"));
        // the application's tables and Flyway history in a schema of their own, Baton's in another
        registry.add("spring.datasource.hikari.schema", () -> APP_SCHEMA);
        registry.add("spring.flyway.schemas", () -> APP_SCHEMA);
        registry.add("baton.redis-uri", () -> env("BATON_TEST_REDIS_URI", "redis://127.0.0.1:6379"));
        registry.add("baton.schema", () -> BATON_SCHEMA);
        registry.add("baton.worker.queues", () -> QUEUE);
    }

    private static String env(String name, String fallback) {
        return Optional.ofNullable(System.getenv(name)).filter(value -> !value.isBlank()).orElse(fallback);
    }

    @Autowired
    Baton baton;
    @Autowired
    ShopApplication.Orders orders;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MeterRegistry registry;
    @Autowired
    @Qualifier("batonHealthIndicator")
    HealthIndicator health;

    @Test
    void aHandlersJdbcTemplateWriteCommitsOnceThoughItsFirstAttemptFailedAfterWriting() {
        orders.place("flaky-1", 4200, false);

        awaitCompleted("invoice-flaky-1");
        assertThat(count("SELECT count(*) FROM invoices WHERE order_id = 'flaky-1'")).isEqualTo(1);
        assertThat(registry.get("baton.jobs.retried").tag("queue", QUEUE).counter().count()).isEqualTo(1);
        assertThat(registry.get("baton.jobs.completed").tag("queue", QUEUE).counter().count()).isPositive();
    }

    /**
     * A direct enqueue publishes to Redis at once, whatever the caller's transaction does later: a rolled-back order
     * still gets its invoice job. The outbox (next test) is the way to enqueue in the transaction.
     */
    @Test
    void anEnqueueFromATransactionalMethodThatRollsBackIsStillPublished() {
        assertThatThrownBy(() -> orders.place("declined-2", 990, true)).hasMessage("payment declined");

        awaitCompleted("invoice-declined-2");
        assertThat(count("SELECT count(*) FROM orders WHERE order_id = 'declined-2'")).as("rolled back").isZero();
        assertThat(count("SELECT count(*) FROM invoices WHERE order_id = 'declined-2'")).as("published anyway")
                .isEqualTo(1);
    }

    @Test
    void anOutboxEnqueueJoinsTheTransactionalMethodItRunsOnlyWhenTheOrderCommitted() {
        assertThatThrownBy(() -> orders.placeInTransaction("declined-4", 990, true)).hasMessage("payment declined");
        orders.placeInTransaction("paid-4", 990, false);

        awaitCompleted("invoice-paid-4");
        assertThat(count("SELECT count(*) FROM invoices WHERE order_id = 'paid-4'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM orders WHERE order_id = 'declined-4'")).as("rolled back").isZero();
        assertThat(count("SELECT count(*) FROM " + BATON_SCHEMA + ".job_outbox WHERE job_id = 'invoice-declined-4'"))
                .as("rolled back with the order").isZero();
        assertThat(baton.job(QUEUE, "invoice-declined-4")).isInstanceOf(Whereabouts.Unknown.class);
    }

    @Test
    void theHealthIndicatorReportsRedisAndPostgres() {
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        assertThat(health.health().getDetails()).containsEntry("redis", "UP").containsEntry("postgres", "UP");
    }

    @Test
    void theApplicationsFlywayRanItsOwnMigrationsBesideBatons() {
        assertThat(count("SELECT count(*) FROM " + APP_SCHEMA + ".flyway_schema_history WHERE version = '1'"))
                .as("Spring Boot's Flyway migrated the application's schema").isEqualTo(1);
        awaitCompleted(placed("flyway-3"));
        assertThat(count("SELECT count(*) FROM information_schema.tables WHERE table_schema = '" + BATON_SCHEMA
                + "' AND table_name = 'job_outcomes'")).as("Baton's ledger in Baton's schema").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM information_schema.tables WHERE table_schema = '" + APP_SCHEMA
                + "' AND table_name <> 'flyway_schema_history' AND table_name NOT IN ('orders', 'invoices')"))
                .as("nothing of Baton's in the application's schema").isZero();
    }

    /** The versions Spring Boot 3.5.7 imposes on Baton's dependencies, which Baton was built against newer ones of. */
    @Test
    void bootsDependencyManagementChoseTheVersions() throws IOException {
        List<String> jars = Arrays.stream(Files.readString(Path.of(System.getProperty("runtime.classpath.file")))
                .trim().split(":")).map(jar -> Path.of(jar).getFileName().toString()).toList();

        assertThat(jars).anyMatch(jar -> jar.startsWith("lettuce-core-6.6."))
                .anyMatch(jar -> jar.startsWith("HikariCP-6."))
                .anyMatch(jar -> jar.startsWith("jackson-databind-2.19."))
                .anyMatch(jar -> jar.startsWith("micrometer-core-1.15."));
    }

    private String placed(String orderId) {
        orders.place(orderId, 100, false);
        return "invoice-" + orderId;
    }

    private void awaitCompleted(String jobId) {
        await().atMost(WAIT).until(() -> baton.job(QUEUE, jobId) instanceof Whereabouts.Completed);
    }

    private int count(String sql) {
        return jdbc.queryForObject(sql, Integer.class);
    }
}
