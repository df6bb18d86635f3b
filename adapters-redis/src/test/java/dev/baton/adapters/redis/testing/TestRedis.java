package dev.baton.adapters.redis.testing;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The Redis that tests run against, started at most once per JVM: {@code BATON_TEST_REDIS_URI} when set; else a
 * Testcontainers Redis when Docker is available; else a private server process (see {@link ThrowawayRedis}).
 * Tests share it, so each test class uses queue names of its own.
 */
public final class TestRedis {
    public static final String ENVIRONMENT_VARIABLE = "BATON_TEST_REDIS_URI";
    private static String uri;

    private TestRedis() {
    }

    /**
     * @throws IllegalStateException when no Redis can be had, saying how to provide one
     */
    public static synchronized String uri() {
        if (uri == null) {
            uri = provide();
        }
        return uri;
    }

    private static String provide() {
        String configured = System.getenv(ENVIRONMENT_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        if (dockerAvailable()) {
            GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("redis:7.0-alpine"))
                    .withExposedPorts(6379);
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            return "redis://" + container.getHost() + ":" + container.getMappedPort(6379);
        }
        try {
            ThrowawayRedis server = ThrowawayRedis.start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
            return server.uri();
        } catch (RuntimeException e) {
            throw new IllegalStateException("No Redis for the tests: set " + ENVIRONMENT_VARIABLE
                    + " (e.g. redis://127.0.0.1:6379), or make Docker available, or put redis-server on the PATH. "
                    + "Starting one failed: " + e.getMessage(), e);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
