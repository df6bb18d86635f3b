package dev.baton.bootstrap.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.testing.BatonCli;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton dev}: a newcomer's first run, on throwaway servers, from the packaged jar. */
class DevIT {
    @TempDir
    Path dir;

    @Test
    void runsTwoHundredDemoOrdersAndPrintsTheSummary() {
        // the user's own endpoints are set to unreachable ones: dev must not use them
        BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", "redis://127.0.0.1:1",
                "BATON_JDBC_URL", "jdbc:postgresql://127.0.0.1:1/nothing?user=nobody"), dir);

        BatonCli.Result result = cli.run("dev", "--jobs", "200");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stdout())
                .containsPattern("Baton dev run: 200 demo orders in [0-9.]+s")
                .containsPattern("completed\\s+195\\s")
                .containsPattern("dead-lettered\\s+5\\s")
                .containsPattern("non_retryable\\s+4\\s")
                .containsPattern("exhausted\\s+1\\s")
                .containsPattern("retried\\s+\\d+")
                .containsPattern("duplicates skipped\\s+0\\s")
                .containsPattern("throughput\\s+\\d+ jobs/s")
                .contains("(195 in the ledger)");
        assertThat(result.stderr()).contains("throwaway Redis and PostgreSQL").doesNotContain("Exception");
    }
}
