package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.cli.InJvmCli.Result;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code baton cancel} end to end: the CLI in this JVM on real Redis and PostgreSQL, its output and exit codes. */
class CancelCliTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_SCHEMA", TestEndpoints.unique("cancelcli")));
    private final String queue = QueuePartitionsCliTest.queue("cancel");

    @Test
    void aCancelExitsZeroAndAJobThatCompletedFirstExitsThree() throws Exception {
        assertThat(cli.run("enqueue", "--queue", queue, "--job-id", "doomed", "--payload", "x").exit()).isZero();
        assertThat(cli.run("enqueue", "--queue", queue, "--job-id", "done", "--payload", "x").exit()).isZero();

        Result cancelled = cli.run("cancel", "doomed", "--queue", queue);
        Result again = cli.run("cancel", "doomed", "--queue", queue);

        assertThat(cancelled.exit()).as(cancelled.toString()).isZero();
        assertThat(cancelled.out()).contains("doomed: cancelled");
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("doomed: already cancelled");
        InJvmCli.Worker worker = cli.startWorker("--queue", queue, "--handler", "noop");
        try {
            await().atMost(WAIT).until(() -> cli.stats(queue).get("lag").asLong() == 0
                    && cli.stats(queue).get("pending").asLong() == 0);
        } finally {
            assertThat(worker.stop().exit()).isZero();
        }

        Result completed = cli.run("cancel", "done", "--queue", queue);

        assertThat(completed.exit()).as(completed.toString()).isEqualTo(3);
        assertThat(completed.out()).contains("done: already completed");
        assertThat(cli.run("job", "doomed", "--queue", queue).out()).contains("cancelled");
    }

    @Test
    void aBadQueueNameOrJobIdOrAMissingQueueIsAUsageError() {
        Result badQueue = cli.run("cancel", "some-job", "--queue", "bad queue!");
        Result badId = cli.run("cancel", "x".repeat(JobId.MAX_LENGTH + 1), "--queue", queue);
        Result noQueue = cli.run("cancel", "some-job");

        assertThat(badQueue.exit()).as(badQueue.toString()).isEqualTo(2);
        assertThat(badQueue.err()).contains("baton:");
        assertThat(badId.exit()).as(badId.toString()).isEqualTo(2);
        assertThat(noQueue.exit()).as(noQueue.toString()).isEqualTo(2);
        assertThat(noQueue.err()).contains("--queue");
    }
}
