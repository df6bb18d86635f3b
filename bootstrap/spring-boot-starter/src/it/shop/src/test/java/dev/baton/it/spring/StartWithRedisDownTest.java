package dev.baton.it.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.bootstrap.Baton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An application whose Redis is down when it starts comes up all the same (baton.require-servers-at-start is false
 * by default): its health reports Baton DOWN, an outbox enqueue (which needs only PostgreSQL) succeeds, and once a
 * Redis listens on the configured port the job runs. The Redis is a server of this test's own, started by the
 * {@code redis-server} on the PATH (or BATON_TEST_REDIS_SERVER) on a port that was free.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StartWithRedisDownTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Shop SHOP = new Shop().createTables();
    private static final int REDIS_PORT = freePort();
    private static Process redis;

    @DynamicPropertySource
    static void endpoints(DynamicPropertyRegistry registry) {
        SHOP.properties(registry, "redis://127.0.0.1:" + REDIS_PORT);
    }

    @Autowired
    Baton baton;
    @Autowired
    ShopApplication.Orders orders;
    @Autowired
    JdbcTemplate jdbc;
    @Value("${local.server.port}")
    int port;

    @Test
    void comesUpReportsBatonDownAndRunsTheJobOnceRedisIsBack() throws IOException {
        Shop.Health down = Shop.health(port);
        assertThat(down.status()).isEqualTo("DOWN");
        assertThat(down.httpStatus()).isEqualTo(503);
        assertThat(down.details()).containsKey("redis").doesNotContainEntry("redis", "UP");

        orders.placeInTransaction("while-down-1", 1500, false);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM " + SHOP.batonSchema
                + ".job_outbox WHERE job_id = 'invoice-while-down-1'", Integer.class)).as("in the outbox").isOne();

        redis = new ProcessBuilder(List.of(Shop.env("BATON_TEST_REDIS_SERVER", "redis-server"),
                "--port", String.valueOf(REDIS_PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();

        await().atMost(WAIT).ignoreExceptions()
                .until(() -> baton.job(SHOP.queue, "invoice-while-down-1") instanceof Whereabouts.Completed);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM invoices WHERE order_id = 'while-down-1'",
                Integer.class)).isOne();
        await().atMost(WAIT).until(() -> Shop.health(port).status().equals("UP"));
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.destroy();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
