package dev.baton.bootstrap.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.testing.BatonCli;
import dev.baton.bootstrap.testing.TestEndpoints;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code baton worker --schedules} processes fire an every-second schedule for about twenty seconds, and one is
 * killed with {@code kill -9} a third of the way in. Every fire time from the first to the last completed once in the
 * ledger with one shipment, and the stream holds one entry per fire time: no leader, no duplicate, no gap.
 */
class SchedulesIT {
    private static final int SECONDS = 20;

    @TempDir
    Path dir;

    @Test
    void threeWorkerProcessesFireEachSecondOnceWhileOneIsKilled() throws Exception {
        String queue = TestEndpoints.unique("cron").replace('_', '-');
        String schema = TestEndpoints.unique("cron");
        String prefix = "schedule:tick-" + queue + ":";
        Path schedules = Files.writeString(dir.resolve("ticks.schedules"),
                "# one tick a second\ntick-" + queue + " | every 1s | " + queue + " | {\"orderId\":\"tick\"}\n");
        BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", TestEndpoints.redisUri(),
                "BATON_JDBC_URL", TestEndpoints.jdbcUrl(), "BATON_SCHEMA", schema, "BATON_ADMIN_ADDRESS", "off",
                "BATON_LEASE", "3s"), dir);
        List<BatonCli.Running> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(cli.start("worker", "--queue", queue, "--handler", "orders", "--consumer", "w" + i,
                    "--schedules", schedules.toString()));
        }
        Ledger ledger = new Ledger(TestEndpoints.jdbcUrl(), schema);

        await().atMost(Duration.ofSeconds(120)).ignoreExceptions()
                .until(() -> ledger.completions(queue) >= SECONDS / 3);
        workers.get(0).process().destroyForcibly(); // kill -9: its in-flight job is reclaimed after the lease
        await().atMost(Duration.ofSeconds(120)).until(() -> fireTimes(ledger, queue, prefix).size() >= SECONDS
                && contiguous(fireTimes(ledger, queue, prefix)));
        for (BatonCli.Running worker : workers.subList(1, 3)) {
            worker.process().destroy();
            assertThat(worker.await(Duration.ofSeconds(60)).exitCode()).isZero();
        }

        List<Instant> completed = fireTimes(ledger, queue, prefix);
        assertThat(contiguous(completed)).as("no fire time skipped: %s", completed).isTrue();
        assertThat(ledger.count("select count(*) from {schema}.demo_shipments where job_id like ? || '%'", prefix))
                .as("one shipment per completed fire time").isEqualTo(completed.size());
        List<String> entries = streamJobIds(queue);
        assertThat(entries).as("one stream entry per fire time").doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(id).startsWith(prefix));
        assertThat(entries.size()).isGreaterThanOrEqualTo(completed.size());
    }

    private static List<Instant> fireTimes(Ledger ledger, String queue, String prefix) {
        return ledger.strings("select job_id from {schema}.job_outcomes where queue = ? and state = 'completed'", queue)
                .stream().map(id -> Instant.parse(id.substring(prefix.length()))).sorted().toList();
    }

    private static boolean contiguous(List<Instant> times) {
        return !times.isEmpty() && times.equals(Stream.iterate(times.get(0), time -> time.plusSeconds(1))
                .limit(times.size()).toList());
    }

    private static List<String> streamJobIds(String queue) {
        RedisClient client = RedisClient.create(TestEndpoints.redisUri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().xrange("baton:{" + queue + "}:stream", Range.create("-", "+"))
                    .stream().map(StreamMessage::getBody).map(body -> body.get("job_id")).toList();
        } finally {
            client.shutdown();
        }
    }
}
