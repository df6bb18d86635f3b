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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Baton's starter in a Spring Boot web application (Boot 3.5 or 4, whichever the project's parent is), on the
 * versions Boot's dependency management imposes: the worker of {@code baton.worker.queues} runs jobs whose
 * JdbcTemplate writes are exactly-once, an outbox enqueue commits or rolls back with the application's transaction,
 * and the health indicator and meters report.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SpringBootCheckTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Shop SHOP = new Shop().createTables();

    @DynamicPropertySource
    static void endpoints(DynamicPropertyRegistry registry) {
        SHOP.properties(registry, Shop.redisUri());
    }

    @Autowired
    Baton baton;
    @Autowired
    ShopApplication.Orders orders;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MeterRegistry registry;
    @Value("${local.server.port}")
    int port;

    @Test
    void aJdbcTemplateWriteCommitsOnceThoughAnAttemptFailed() {
        orders.place("flaky-1", 4200, false);

        awaitCompleted("invoice-flaky-1");
        assertThat(count("SELECT count(*) FROM invoices WHERE order_id = 'flaky-1'")).isEqualTo(1);
        assertThat(registry.get("baton.jobs.retried").tag("queue", SHOP.queue).counter().count()).isEqualTo(1);
        assertThat(registry.get("baton.jobs.completed").tag("queue", SHOP.queue).counter().count()).isPositive();
    }

    /**
     * A direct enqueue publishes to Redis at once, whatever the caller's transaction does later: a rolled-back order
     * still gets its invoice job. The outbox (next test) is the way to enqueue in the transaction.
     */
    @Test
    void aRolledBackTransactionalEnqueueIsStillPublished() {
        assertThatThrownBy(() -> orders.place("declined-2", 990, true)).hasMessage("payment declined");

        awaitCompleted("invoice-declined-2");
        assertThat(count("SELECT count(*) FROM orders WHERE order_id = 'declined-2'")).as("rolled back").isZero();
        assertThat(count("SELECT count(*) FROM invoices WHERE order_id = 'declined-2'")).as("published anyway")
                .isEqualTo(1);
    }

    @Test
    void anOutboxEnqueueRunsOnlyWhenTheOrderCommitted() {
        assertThatThrownBy(() -> orders.placeInTransaction("declined-4", 990, true)).hasMessage("payment declined");
        orders.placeInTransaction("paid-4", 990, false);

        awaitCompleted("invoice-paid-4");
        assertThat(count("SELECT count(*) FROM invoices WHERE order_id = 'paid-4'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM orders WHERE order_id = 'declined-4'")).as("rolled back").isZero();
        assertThat(count("SELECT count(*) FROM " + SHOP.batonSchema
                + ".job_outbox WHERE job_id = 'invoice-declined-4'")).as("rolled back with the order").isZero();
        assertThat(baton.job(SHOP.queue, "invoice-declined-4")).isInstanceOf(Whereabouts.Unknown.class);
    }

    @Test
    void theActuatorsHealthHasBatonWithRedisAndPostgres() {
        Shop.Health health = Shop.health(port);

        assertThat(health.httpStatus()).isEqualTo(200);
        assertThat(health.status()).isEqualTo("UP");
        assertThat(health.details()).containsEntry("redis", "UP").containsEntry("postgres", "UP");
    }

    @Test
    void batonsTablesAreInBatonsSchemaAndNoneInTheApplications() {
        awaitCompleted(placed("schema-3"));

        assertThat(count("SELECT count(*) FROM information_schema.tables WHERE table_schema = '" + SHOP.batonSchema
                + "' AND table_name = 'job_outcomes'")).as("Baton's ledger in Baton's schema").isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                + SHOP.appSchema + "' ORDER BY table_name", String.class)).as("the application's schema")
                .containsExactly("invoices", "orders");
    }

    /**
     * The versions Boot's dependency management imposes on Baton's dependencies, which Baton was built against newer
     * ones of: the pom names, per Boot line, the jars that must be there and those that must not.
     */
    @Test
    void bootsDependencyManagementChoseTheVersions() throws IOException {
        List<String> jars = Arrays.stream(Files.readString(Path.of(System.getProperty("runtime.classpath.file")))
                .trim().split(":")).map(jar -> Path.of(jar).getFileName().toString()).toList();

        assertThat(prefixes("expected.jars")).isNotEmpty().allSatisfy(prefix ->
                assertThat(jars).anyMatch(jar -> jar.startsWith(prefix)));
        assertThat(prefixes("absent.jars")).isNotEmpty().allSatisfy(prefix ->
                assertThat(jars).noneMatch(jar -> jar.startsWith(prefix)));
    }

    private static List<String> prefixes(String property) {
        return Arrays.stream(System.getProperty(property, "").split(",")).map(String::trim)
                .filter(prefix -> !prefix.isEmpty()).toList();
    }

    private String placed(String orderId) {
        orders.place(orderId, 100, false);
        return "invoice-" + orderId;
    }

    private void awaitCompleted(String jobId) {
        await().atMost(WAIT).until(() -> baton.job(SHOP.queue, jobId) instanceof Whereabouts.Completed);
    }

    private int count(String sql) {
        return jdbc.queryForObject(sql, Integer.class);
    }
}
