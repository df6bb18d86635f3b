package dev.baton.bootstrap.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.testing.BatonCli;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit statuses and one-line messages of bad configuration, bad usage and runtime failures. */
class UsageErrorsIT {
    @TempDir
    Path dir;

    @Test
    void badConfigurationExitsTwoNamingTheSettingAndTheValue() {
        BatonCli cli = new BatonCli(Map.of("BATON_LEASE", "30"), dir);

        BatonCli.Result result = cli.run("worker", "--queue", "orders");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.stderr().strip()).startsWith("baton: invalid BATON_LEASE (--lease) = '30'")
                .contains("500ms, 30s, 5m");
        assertThat(result.stderr().lines().count()).isEqualTo(1);
    }

    @Test
    void aFlagWinsOverTheEnvironment() {
        BatonCli cli = new BatonCli(Map.of("BATON_LEASE", "30", "BATON_CONCURRENCY", "3"), dir);

        BatonCli.Result result = cli.run("config", "--lease", "45s");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stdout()).containsPattern("lease\\s+BATON_LEASE\\s+--lease\\s+45s")
                .containsPattern("concurrency\\s+BATON_CONCURRENCY\\s+--concurrency\\s+3");
    }

    @Test
    void anUnknownHandlerExitsTwoListingTheKnownOnes() {
        BatonCli.Result result = new BatonCli(Map.of(), dir).run("worker", "--queue", "orders", "--handler", "nope");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.stderr()).contains("unknown handler 'nope'", "documents, noop, orders");
    }

    @Test
    void unknownFlagsAndMissingOptionsAreUsageErrors() {
        BatonCli cli = new BatonCli(Map.of(), dir);

        assertThat(cli.run("stats", "--bogus").exitCode()).isEqualTo(2);
        assertThat(cli.run("enqueue", "--queue", "q").exitCode()).isEqualTo(2);
        BatonCli.Result noQueues = cli.run("stats");
        assertThat(noQueues.exitCode()).isEqualTo(2);
        assertThat(noQueues.stderr()).contains("--queue", "BATON_QUEUES");
    }

    @Nested
    class WithAPasswordInTheRedisUri {
        @Test
        void anUnreachableServerIsARuntimeFailureThatNeverPrintsIt() {
            BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", "redis://:hunter2@127.0.0.1:1"), dir);

            BatonCli.Result result = cli.run("stats", "--queue", "orders");

            assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
            assertThat(result.stderr()).startsWith("baton: ").doesNotContain("hunter2");
            BatonCli.Result config = cli.run("config");
            assertThat(config.stdout()).contains("redis://:****@127.0.0.1:1").doesNotContain("hunter2");
        }

        @Test
        void aSentinelUriWithoutAMasterNameIsAUsageErrorThatNeverPrintsIt() {
            BatonCli cli = new BatonCli(Map.of("BATON_REDIS_URI", "redis-sentinel://:hunter2@127.0.0.1:26379"), dir);

            BatonCli.Result result = cli.run("stats", "--queue", "orders");

            assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
            assertThat(result.stderr()).contains("BATON_REDIS_URI 'redis-sentinel://:****@127.0.0.1:26379'",
                    "names no master: add #masterName").doesNotContain("hunter2");
        }
    }
}
