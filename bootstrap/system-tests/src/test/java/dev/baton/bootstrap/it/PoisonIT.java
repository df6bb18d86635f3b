package dev.baton.bootstrap.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.bootstrap.demo.OrdersHandler;
import dev.baton.bootstrap.testing.BatonCli;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A poison order crashes its worker process ({@code --demo-crash-on-poison}) while innocent orders run beside it.
 * Restarted after each crash, the worker runs what the dead one held as suspects, each alone: the innocent ones
 * complete, the poison one crashes it again while isolated and, past the delivery limit, is dead-lettered as POISON.
 * No innocent order is ever dead-lettered, though each shared a worker that crashed.
 */
class PoisonIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MOST_CRASHES = 6;

    @TempDir
    Path dir;

    @Nested
    class TheJobThatKeepsCrashingItsWorker {
        @Test
        void aloneIsDeadLetteredAsPoison() throws Exception {
            String queue = TestEndpoints.unique("poison").replace('_', '-');
            BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                    "BATON_JDBC_URL", TestEndpoints.jdbcUrl(), "BATON_SCHEMA", TestEndpoints.unique("poison"),
                    "BATON_ADMIN_ADDRESS", "off", "BATON_DELIVERY_LIMIT", "1", "BATON_CONCURRENCY", "4",
                    "BATON_LEASE", "2s"), dir);
            List<String> innocent = IntStream.rangeClosed(1, 6).mapToObj(i -> "fine-" + i).toList();
            // three innocent orders are still running (sleeping) when the poison one, leased with them, halts the
            // worker
            innocent.subList(0, 3).forEach(id -> enqueue(cli, queue, id,
                    "{\"orderId\":\"" + id + "\",\"sleepMs\":1500}"));
            enqueue(cli, queue, "bomb", "{\"orderId\":\"bomb\",\"poison\":true}");
            innocent.subList(3, 6).forEach(id -> enqueue(cli, queue, id, "{\"orderId\":\"" + id + "\"}"));
            String[] worker = {"worker", "--queue", queue, "--handler", "orders", "--consumer", "crashy",
                "--demo-crash-on-poison"};

            int crashes = 0;
            BatonCli.Running running = cli.start(worker);
            while (deadLetters(cli, queue).isEmpty()) {
                BatonCli.Result crashed = running.await(Duration.ofMinutes(2));
                assertThat(crashed.exitCode()).as(crashed.toString()).isEqualTo(OrdersHandler.CRASH_STATUS);
                crashes++;
                assertThat(crashes).as("crashes before the poison order was dead-lettered").isLessThan(MOST_CRASHES);
                running = cli.start(worker);
                BatonCli.Running restarted = running;
                await().atMost(Duration.ofSeconds(60)).until(() -> !deadLetters(cli, queue).isEmpty()
                        || !restarted.process().isAlive());
            }

            JsonNode letters = deadLetters(cli, queue);
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).get("job_id").asText()).isEqualTo("bomb");
            assertThat(letters.get(0).get("reason").asText()).isEqualTo("POISON");
            assertThat(crashes).as("once beside the others, then alone").isEqualTo(2);
            for (String id : innocent) {
                await().atMost(Duration.ofSeconds(60)).until(() ->
                        cli.run("job", id, "--queue", queue).stdout().contains("state: completed"));
            }
            JsonNode stats = JSON.readTree(cli.run("stats", "--queue", queue, "--json").stdout()).get("queues").get(0);
            assertThat(stats.get("dead").asLong()).isEqualTo(1);
            assertThat(stats.get("suspects").asLong()).isZero();
            running.process().destroy();
            assertThat(running.await(Duration.ofSeconds(30)).exitCode()).isZero();
        }
    }

    private static void enqueue(BatonCli cli, String queue, String id, String payload) {
        cli.runOk("enqueue", "--queue", queue, "--job-id", id, "--payload", payload);
    }

    private static JsonNode deadLetters(BatonCli cli, String queue) throws Exception {
        return JSON.readTree(cli.run("dlq", "list", "--queue", queue, "--json").stdout());
    }
}
