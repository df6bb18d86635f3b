package dev.baton.bootstrap.config;

import static dev.baton.bootstrap.config.Setting.BATCH_COMMIT;
import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.DELIVERY_LIMIT;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.JOB_THREADS;
import static dev.baton.bootstrap.config.Setting.LEASE;
import static dev.baton.bootstrap.config.Setting.MODE;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.RETENTION;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.Backoff;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    @Test
    void defaultsMatchTheDocumentation() {
        BatonConfig config = BatonConfig.defaults();

        assertThat(config.get(REDIS_URI)).isEqualTo("redis://127.0.0.1:6379");
        assertThat(config.get(JDBC_URL)).isEqualTo("jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");
        assertThat(config.get(SCHEMA)).isEqualTo("baton");
        assertThat(config.get(MODE)).isEqualTo(Mode.EXACTLY_ONCE);
        assertThat(config.get(LEASE)).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.get(DELIVERY_LIMIT)).isEqualTo(5);
        assertThat(config.retryPolicy().maxAttempts()).isEqualTo(5);
        assertThat(config.retryPolicy().backoff())
                .isEqualTo(new Backoff.Exponential(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5)));
        assertThat(config.get(CONCURRENCY)).isEqualTo(8);
        assertThat(config.adminAddress()).contains(new AdminAddress("127.0.0.1", 9400));
        assertThat(config.queues()).isEmpty();
    }

    @Test
    void flagsWinOverTheFileWhichWinsOverTheEnvironment() throws IOException {
        Path file = write("lease=45s\nconcurrency=3\n");
        Map<String, String> env = Map.of("BATON_LEASE", "10s", "BATON_CONCURRENCY", "2", "BATON_DELIVERY_LIMIT", "9",
                "BATON_MAX_ATTEMPTS", "4");

        BatonConfig config = ConfigLoader.load(env, Optional.of(file), Map.of("concurrency", "7"));

        assertThat(config.get(DELIVERY_LIMIT)).as("env over default").isEqualTo(9);
        assertThat(config.get(LEASE)).as("file over env").isEqualTo(Duration.ofSeconds(45));
        assertThat(config.get(CONCURRENCY)).as("flag over file").isEqualTo(7);
        assertThat(config.retryPolicy().maxAttempts()).isEqualTo(4);
    }

    @Test
    void propertiesFileAcceptsEnvironmentStyleKeysToo() throws IOException {
        Path file = write("BATON_SCHEMA=jobs\n");

        assertThat(ConfigLoader.load(Map.of(), Optional.of(file), Map.of()).get(SCHEMA)).isEqualTo("jobs");
    }

    @Test
    void parsesHumanDurationsModesQueuesAndAdminAddresses() {
        BatonConfig config = ConfigLoader.load(Map.of("BATON_LEASE", "500ms", "BATON_BACKOFF_INITIAL", "2s",
                "BATON_BACKOFF_MAX", "5m", "BATON_RETENTION", "2d", "BATON_MODE", "at-least-once",
                "BATON_QUEUES", "orders, emails,orders", "BATON_ADMIN_ADDRESS", "0.0.0.0:0"), Optional.empty(),
                Map.of());

        assertThat(config.get(LEASE)).isEqualTo(Duration.ofMillis(500));
        assertThat(config.get(RETENTION)).isEqualTo(Duration.ofDays(2));
        assertThat(config.get(MODE)).isEqualTo(Mode.AT_LEAST_ONCE);
        assertThat(config.queues()).containsExactly(QueueName.of("orders"), QueueName.of("emails"));
        assertThat(config.adminAddress()).contains(new AdminAddress("0.0.0.0", 0));
        assertThat(ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "off"), Optional.empty(), Map.of())
                .adminAddress()).isEmpty();
    }

    @Test
    void thePublicOriginIsAnOriginOrNothing() {
        assertThat(ConfigLoader.load(Map.of("BATON_ADMIN_PUBLIC_ORIGIN", "HTTPS://Baton.Example.com/"),
                Optional.empty(), Map.of()).adminPublicOrigin()).contains("https://baton.example.com");
        assertThat(ConfigLoader.load(Map.of("BATON_ADMIN_PUBLIC_ORIGIN", "http://10.0.0.5:8080"), Optional.empty(),
                Map.of()).adminPublicOrigin()).contains("http://10.0.0.5:8080");
        assertThat(BatonConfig.defaults().adminPublicOrigin()).isEmpty();
        for (String bad : List.of("baton.example.com", "ftp://baton.example.com", "https://baton.example.com/admin",
                "https://user@baton.example.com", "https://baton.example.com?x=1")) {
            assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_ADMIN_PUBLIC_ORIGIN", bad), Optional.empty(),
                    Map.of())).as(bad).hasMessageContaining("BATON_ADMIN_PUBLIC_ORIGIN")
                    .hasMessageContaining("https://baton.example.com");
        }
    }

    @Test
    void aBadValueNamesTheSettingItsSourceAndTheValue() {
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_LEASE", "30"), Optional.empty(), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("BATON_LEASE")
                .hasMessageContaining("--lease")
                .hasMessageContaining("'30'")
                .hasMessageContaining("environment")
                .hasMessageContaining("500ms, 30s, 5m");
        assertThatThrownBy(() -> ConfigLoader.load(Map.of(), Optional.empty(), Map.of("delivery-limit", "0")))
                .hasMessageContaining("BATON_DELIVERY_LIMIT").hasMessageContaining("command line")
                .hasMessageContaining("1..1000");
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_MODE", "twice"), Optional.empty(), Map.of()))
                .hasMessageContaining("BATON_MODE").hasMessageContaining("exactly-once or at-least-once");
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_ADMIN_ADDRESS", "9400"), Optional.empty(),
                Map.of())).hasMessageContaining("BATON_ADMIN_ADDRESS").hasMessageContaining("host:port");
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_QUEUES", "a:b"), Optional.empty(), Map.of()))
                .hasMessageContaining("BATON_QUEUES").hasMessageContaining("'a:b'");
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_BACKOFF_INITIAL", "10m"), Optional.empty(),
                Map.of())).hasMessageContaining("BATON_BACKOFF_MAX").hasMessageContaining("BATON_BACKOFF_INITIAL");
    }

    @Test
    void batchCommitReachesTheWorkerSettingsAndIsBounded() {
        BatonConfig config = ConfigLoader.load(Map.of("BATON_BATCH_COMMIT", "20"), Optional.empty(), Map.of());

        assertThat(config.get(BATCH_COMMIT)).isEqualTo(20);
        assertThat(BatonConfig.defaults().get(BATCH_COMMIT)).isEqualTo(1);
        assertThatThrownBy(() -> ConfigLoader.load(Map.of(), Optional.empty(), Map.of("batch-commit", "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("BATON_BATCH_COMMIT");
    }

    @Test
    void jobThreadsAreAutoByDefaultAndParsedStrictly() {
        BatonConfig config = ConfigLoader.load(Map.of("BATON_JOB_THREADS", "Platform"), Optional.empty(), Map.of());

        assertThat(config.get(JOB_THREADS)).isEqualTo(JobThreads.PLATFORM);
        assertThat(config.describe()).containsEntry("job-threads", "platform");
        assertThat(BatonConfig.defaults().get(JOB_THREADS)).isEqualTo(JobThreads.AUTO);
        assertThatThrownBy(() -> ConfigLoader.load(Map.of(), Optional.empty(), Map.of("job-threads", "fibers")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("BATON_JOB_THREADS")
                .hasMessageContaining("auto, platform or virtual");
    }

    @Test
    void virtualJobThreadsOnARuntimeWithoutThemFailAtStartUp() {
        Map<String, String> env = Map.of("BATON_JOB_THREADS", "virtual");
        if (Runtime.version().feature() >= 21) {
            assertThat(ConfigLoader.load(env, Optional.empty(),
                    Map.of()).get(JOB_THREADS)).isEqualTo(JobThreads.VIRTUAL);
        } else {
            assertThatThrownBy(() -> ConfigLoader.load(env, Optional.empty(), Map.of()))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("BATON_JOB_THREADS")
                    .hasMessageContaining("need Java 21");
        }
    }

    @Test
    void anUnknownSettingInTheFileIsAnError() throws IOException {
        Path file = write("leese=30s\n");

        assertThatThrownBy(() -> ConfigLoader.load(Map.of(), Optional.of(file), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown setting 'leese'")
                .hasMessageContaining(file.toString());
    }

    @Test
    void aBadRedisUriIsReportedWithItsPasswordMasked() {
        assertThatThrownBy(() -> ConfigLoader.load(Map.of("BATON_REDIS_URI", "http://:hunter2@cache:6379"),
                Optional.empty(), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("BATON_REDIS_URI")
                .hasMessageContaining("http://:****@cache:6379")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void aSentinelUriIsAcceptedAndItsPasswordMasked() {
        BatonConfig config = ConfigLoader.load(Map.of("BATON_REDIS_URI",
                "rediss-sentinel://:s3cr3t@s1:26379,s2:26379#jobs"), Optional.empty(), Map.of());

        assertThat(config.get(REDIS_URI)).isEqualTo("rediss-sentinel://:s3cr3t@s1:26379,s2:26379#jobs");
        assertThat(config.describe().get("redis-uri")).isEqualTo("rediss-sentinel://:****@s1:26379,s2:26379#jobs");
    }

    @Test
    void describeAndRedactNeverShowPasswords() {
        BatonConfig config = ConfigLoader.load(Map.of("BATON_REDIS_URI", "rediss://app:s3cr3t@cache:6380/2",
                "BATON_JDBC_URL", "jdbc:postgresql://db:5432/app?user=app&password=pg-pass&ssl=true"),
                Optional.empty(), Map.of());

        assertThat(config.describe().get("redis-uri")).isEqualTo("rediss://app:****@cache:6380/2");
        assertThat(config.describe().get("jdbc-url"))
                .isEqualTo("jdbc:postgresql://db:5432/app?user=app&password=****&ssl=true");
        assertThat(config.describe().toString()).doesNotContain("s3cr3t", "pg-pass");
        assertThat(config.redact("auth failed for s3cr3t and pg-pass")).isEqualTo("auth failed for **** and ****");
    }

    @Test
    void everySettingHasAnEnvironmentNameAFlagAndAParsableDefault() {
        assertThat(Setting.all()).allSatisfy(setting -> {
            assertThat(setting.envName()).startsWith("BATON_").doesNotContain("-");
            assertThat(setting.flagName()).matches("[a-z-]+");
        });
        assertThat(BatonConfig.defaults().describe()).containsOnlyKeys(
                Setting.all().stream().map(Setting::flagName).toList());
    }

    private Path write(String content) throws IOException {
        Path file = dir.resolve("baton.properties");
        Files.writeString(file, content);
        return file;
    }
}
