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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A poison order crashes its worker ({@code --demo-crash-on-poison}); the restarted worker finds it over the
 * delivery limit and dead-letters it as POISON instead of crashing again, and the other orders complete.
 */
class PoisonIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aJobThatKeepsCrashingItsWorkerIsDeadLetteredAsPoison() throws Exception {
        String queue = TestEndpoints.unique("poison").replace('_', '-');
        BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                "BATON_JDBC_URL", TestEndpoints.jdbcUrl(), "BATON_SCHEMA", TestEndpoints.unique("poison"),
                "BATON_ADMIN_ADDRESS", "off", "BATON_DELIVERY_LIMIT", "1", "BATON_CONCURRENCY", "1"), dir);
        cli.run("enqueue", "--queue", queue, "--job-id", "bomb", "--payload", "{\"orderId\":\"b\",\"poison\":true}");
        cli.run("enqueue", "--queue", queue, "--job-id", "fine", "--payload", "{\"orderId\":\"f\"}");
        String[] worker = {"worker", "--queue", queue, "--handler", "orders", "--consumer", "crashy",
            "--demo-crash-on-poison"};

        BatonCli.Result crashed = cli.start(worker).await(Duration.ofMinutes(2));
        assertThat(crashed.exitCode()).as(crashed.toString()).isEqualTo(OrdersHandler.CRASH_STATUS);

        BatonCli.Running restarted = cli.start(worker);
        JsonNode letters = awaitDeadLetter(cli, queue);
        assertThat(letters.get(0).get("job_id").asText()).isEqualTo("bomb");
        assertThat(letters.get(0).get("reason").asText()).isEqualTo("POISON");
        await().atMost(Duration.ofSeconds(60)).until(() ->
                cli.run("job", "fine", "--queue", queue).stdout().contains("state: completed"));
        restarted.process().destroy();
        assertThat(restarted.await(Duration.ofSeconds(30)).exitCode()).isZero();
    }

    private static JsonNode awaitDeadLetter(BatonCli cli, String queue) throws Exception {
        JsonNode[] letters = new JsonNode[1];
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            letters[0] = JSON.readTree(cli.run("dlq", "list", "--queue", queue, "--json").stdout());
            return letters[0].size() == 1;
        });
        return letters[0];
    }
}
