package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.cli.InJvmCli.Result;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code baton enqueue --at/--delay}: due times beyond 10 years are usage errors that enqueue nothing. */
class DueTimeCliTest {
    private final InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_MODE", "at-least-once"));
    private final String queue = QueuePartitionsCliTest.queue("due-cli");

    @Test
    void anInstantBeyondTheHorizonIsRefusedNamingTheLatest() throws IOException {
        Result far = enqueue("far-1", "--at", Instant.now().plus(3660, ChronoUnit.DAYS).toString());
        Result year3000 = enqueue("far-2", "--at", "3000-01-01T00:00:00Z");

        assertThat(far.exit()).as(far.toString()).isEqualTo(2);
        assertThat(far.err()).contains("is more than 10 years (3653 days) ahead: the latest allowed now is");
        assertThat(year3000.exit()).as(year3000.toString()).isEqualTo(2);
        assertThat(cli.stats(queue).get("delayed").asLong()).isZero();
    }

    @Test
    void aDelayBeyondTheHorizonIsRefused() {
        Result result = enqueue("far-3", "--delay", "3654d");

        assertThat(result.exit()).as(result.toString()).isEqualTo(2);
        assertThat(result.err()).contains("delay PT87696H is more than 10 years (3653 days)");
    }

    @Test
    void anInstantWithinTheHorizonIsDelayed() throws IOException {
        Result near = enqueue("near-1", "--at", Instant.now().plus(3600, ChronoUnit.DAYS).toString());

        assertThat(near.exit()).as(near.toString()).isZero();
        assertThat(cli.stats(queue).get("delayed").asLong()).isEqualTo(1);
    }

    private Result enqueue(String jobId, String... options) {
        return cli.run(Stream.concat(Stream.of("enqueue", "--queue", queue, "--job-id", jobId, "--payload", "{}"),
                Stream.of(options)).toArray(String[]::new));
    }
}
