package dev.baton.bootstrap.local;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * A throwaway Redis on a free loopback port, without persistence: the {@code redis-server} on the PATH if there is
 * one, else the binary bundled with embedded-redis. Never touches a Redis the user runs.
 */
public final class LocalRedis implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRedis.class);

    private final int port;
    private final String origin;
    private final AutoCloseable server;
    private final Path directory;
    private final ExitGuard guard;

    private LocalRedis(int port, String origin, AutoCloseable server, Path directory) {
        this.port = port;
        this.origin = origin;
        this.server = server;
        this.directory = directory;
        this.guard = ExitGuard.closeOnExit("redis", this::stop);
    }

    /** {@code -Dbaton.dev.redis=embedded} skips an installed redis-server. */
    public static LocalRedis start() {
        return start("embedded".equals(System.getProperty("baton.dev.redis")));
    }

    public static LocalRedis start(boolean embeddedOnly) {
        int port = FreePort.pick();
        Path directory = TempFiles.directory("baton-dev-redis");
        Optional<Path> installed = embeddedOnly ? Optional.empty() : Executables.onPath("redis-server");
        if (installed.isPresent()) {
            ServerProcess process = ServerProcess.start("redis-server",
                    List.of(installed.get().toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                            "--save", "", "--appendonly", "no", "--dir", directory.toString()),
                    directory.resolve("redis.log"), "Ready to accept connections", Duration.ofSeconds(30));
            LOG.info("local redis started origin={} port={}", installed.get(), port);
            return new LocalRedis(port, installed.get().toString(), process, directory);
        }
        try {
            RedisServer embedded = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                    .setting("save \"\"").setting("appendonly no").setting("dir " + directory).build();
            embedded.start();
            LOG.info("local redis started origin=embedded-redis port={}", port);
            return new LocalRedis(port, "embedded-redis", embedded::stop, directory);
        } catch (IOException | RuntimeException e) {
            TempFiles.delete(directory);
            throw new LocalServerException("no redis-server on the PATH and the embedded Redis failed to start: "
                    + e.getMessage() + " (install Redis, e.g. apt-get install redis-server)", e);
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Which binary runs: a path, or {@code embedded-redis}. */
    public String origin() {
        return origin;
    }

    @Override
    public void close() {
        guard.release();
        stop();
    }

    private void stop() {
        try {
            server.close();
        } catch (Exception e) {
            LOG.warn("local redis did not stop cleanly port={} error={}", port, e.toString());
        }
        TempFiles.delete(directory);
    }
}
