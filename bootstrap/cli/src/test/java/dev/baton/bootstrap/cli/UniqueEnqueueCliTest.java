package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.cli.InJvmCli.Result;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code baton enqueue --unique KEY}: the CLI in this JVM on real Redis. */
class UniqueEnqueueCliTest {
    private final InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_MODE", "at-least-once"));
    private final String queue = QueuePartitionsCliTest.queue("unique-cli");

    @Test
    void aSecondEnqueueWithTheKeyPrintsTheJobHoldingItAndExitsZero() throws Exception {
        Result first = enqueue("r-1", "--unique", "report:2030-01-01", "--unique-for", "1h");
        Result second = enqueue("r-2", "--unique", "report:2030-01-01");

        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(first.out()).contains("enqueued r-1 on " + queue + " (due now)");
        assertThat(second.exit()).as(second.toString()).isZero();
        assertThat(second.out()).contains("job r-1 holds unique key report:2030-01-01 on " + queue
                + ": nothing enqueued");
        assertThat(cli.stats(queue).get("length").asLong()).isEqualTo(1);
    }

    @Test
    void aPeriodWithoutAKeyOrThatIsNoDurationIsAUsageError() {
        Result lonely = enqueue("r-1", "--unique-for", "1h");
        Result invalid = enqueue("r-1", "--unique", "k", "--unique-for", "soon");

        assertThat(lonely.exit()).isEqualTo(2);
        assertThat(lonely.err()).contains("--unique-for needs --unique");
        assertThat(invalid.exit()).isEqualTo(2);
        assertThat(invalid.err()).contains("invalid --unique-for 'soon'");
    }

    private Result enqueue(String jobId, String... options) {
        return cli.run(concat(new String[] {"enqueue", "--queue", queue, "--job-id", jobId, "--payload", "{}"},
                options));
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
