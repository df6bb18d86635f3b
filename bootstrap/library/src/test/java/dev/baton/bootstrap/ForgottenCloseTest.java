package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.QueueName;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application whose {@code main} returns without {@code close()}: the shutdown hook lets the running job finish
 * and acknowledges every committed one (without it, the daemon worker threads die with the last job uncommitted).
 */
class ForgottenCloseTest {
    private static final int JOBS = 20;

    @Test
    void jobsInFlightWhenMainReturnedAreCompletedAndAcknowledged(@TempDir Path output) throws Exception {
        String queue = TestEndpoints.unique("forgotten").replace('_', '-');
        String schema = TestEndpoints.unique("forgotten");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                ForgottenCloseMain.class.getName(), TestEndpoints.redisUri(), TestEndpoints.jdbcUrl(), schema, queue,
                Integer.toString(JOBS), "true")
                .redirectErrorStream(true).redirectOutput(output.resolve("child.log").toFile()).start();

        assertThat(child.waitFor(2, TimeUnit.MINUTES)).as("the child JVM exits when main returns").isTrue();
        assertThat(child.exitValue()).as(log(output.resolve("child.log").toFile())).isZero();
        try (Baton baton = Baton.builder().set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl())
                .set(SCHEMA, schema).build()) {
            InspectQueueUseCase.QueueReport report = baton.use(InspectQueueUseCase.class)
                    .inspect(new InspectQueueUseCase.Command(QueueName.of(queue)));
            assertThat(report.completed()).hasValue(JOBS);
            assertThat(report.stats().pending()).as("no committed job left unacknowledged").isZero();
        }
    }

    private static String log(File file) throws IOException {
        return Files.readString(file.toPath());
    }
}
