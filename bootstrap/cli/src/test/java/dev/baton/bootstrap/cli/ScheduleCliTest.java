package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.cli.InJvmCli.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton worker --schedules} and {@code baton schedule list}: the CLI in this JVM on real Redis. */
class ScheduleCliTest {
    @TempDir
    Path dir;

    @Test
    void aBadLineStopsTheWorkerAtStartNamingTheFileAndLine() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.schedules"),
                "# ticks\ntick | every 1s | metrics | {}\nreport | 0 25 * * * | reports | {}\n");
        InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_MODE", "at-least-once"));

        Result worker = cli.run("worker", "--queue", "metrics", "--handler", "noop", "--schedules", file.toString());
        Result fromEnv = new InJvmCli(Map.of("BATON_MODE", "at-least-once", "BATON_SCHEDULES", file.toString()))
                .run("schedule", "list");

        assertThat(worker.exit()).as(worker.toString()).isEqualTo(2);
        assertThat(worker.err()).contains("baton: " + file + ":3: cron hour field '25': values are 0..23");
        assertThat(fromEnv.exit()).as(fromEnv.toString()).isEqualTo(2);
        assertThat(fromEnv.err()).contains(file + ":3:");
    }

    @Test
    void theListShowsNextFireTimesAndTheLastFireAWorkerMade() throws Exception {
        String queue = QueuePartitionsCliTest.queue("ticks");
        Path file = Files.writeString(dir.resolve("jobs.schedules"), "tick-" + queue + " | every 1s | " + queue
                + " | {}\nnightly-" + queue + " | TZ=Europe/Berlin 0 2 * * * | " + queue
                + " | {\"kind\":\"nightly\"}\n");
        InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_MODE", "at-least-once"));

        Result before = cli.run("schedule", "list", "--schedules", file.toString(), "--next", "2");
        assertThat(before.exit()).as(before.toString()).isZero();
        assertThat(before.out()).contains("SCHEDULE", "LAST FIRE", "tick-" + queue, "every 1s catch-up=latest",
                "TZ=Europe/Berlin 0 2 * * * catch-up=latest", "T01:00:00Z, ", "never");

        InJvmCli.Worker worker = cli.startWorker("--queue", queue, "--handler", "noop", "--schedules",
                file.toString());
        await().atMost(Duration.ofSeconds(60)).until(() -> cli.run("schedule", "list", "--schedules",
                file.toString()).out().lines().anyMatch(line -> line.startsWith("tick-") && !line.endsWith("never")));
        Result stopped = worker.stop();

        assertThat(stopped.exit()).as(stopped.toString()).isZero();
        assertThat(stopped.err()).contains("firing 2 schedule(s)");
        assertThat(cli.run("stats", "--queue", queue).exit()).isZero();
    }
}
