package dev.baton.adapters.redis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import redis.embedded.RedisServer;

/**
 * A private Redis server process on a free port, without persistence: a test may restart or stop it (never do that
 * to a shared server). Runs {@code redis-server} from the PATH, else the binary bundled with embedded-redis.
 */
public final class ThrowawayRedis implements AutoCloseable {
    private final int port;
    private final List<String> extraArgs;
    private final boolean fromPath;
    private Process process;
    private RedisServer embedded;

    private ThrowawayRedis(int port, List<String> extraArgs, boolean fromPath) {
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
        this.fromPath = fromPath;
    }

    /**
     * Starts a server on a free port.
     *
     * @param extraArgs more {@code redis-server} options, e.g. {@code "--requirepass", "secret"}
     * @throws IllegalStateException when no server can be started, saying how to provide one
     */
    public static ThrowawayRedis start(String... extraArgs) {
        boolean fromPath = onPath();
        ThrowawayRedis redis = new ThrowawayRedis(freePort(), List.of(extraArgs), fromPath);
        redis.startProcess();
        return redis;
    }

    /**
     * A server on a free port that is not running yet: nothing listens there until {@link #startNow()}, so a client
     * can be opened against a server that is down.
     */
    public static ThrowawayRedis notStarted(String... extraArgs) {
        return new ThrowawayRedis(freePort(), List.of(extraArgs), onPath());
    }

    /** Starts the server and returns once it accepts connections. */
    public void startNow() {
        startProcess();
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>} */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Stops the server; its data is gone. */
    public void stop() {
        if (process != null) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while stopping redis-server on port " + port, e);
            }
            process = null;
        }
        if (embedded != null) {
            try {
                embedded.stop();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            embedded = null;
        }
    }

    /** Stops the server and starts an empty one on the same port, as a restart without persistence does. */
    public void restart() {
        stop();
        startProcess();
    }

    @Override
    public void close() {
        stop();
    }

    private void startProcess() {
        try {
            if (fromPath) {
                List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"));
                command.addAll(extraArgs);
                process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            } else {
                var builder = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                        .setting("save \"\"").setting("appendonly no");
                for (int i = 0; i + 1 < extraArgs.size(); i += 2) {
                    builder.setting(extraArgs.get(i).replaceFirst("^--", "") + " " + extraArgs.get(i + 1));
                }
                embedded = builder.build();
                embedded.start();
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a Redis server on port " + port + ": " + e.getMessage()
                    + ". Install redis-server on the PATH, or set BATON_TEST_REDIS_URI.", e);
        }
        Awaitility.await("redis-server on port " + port).atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20)).until(this::accepting);
    }

    private boolean accepting() {
        if (process != null && !process.isAlive()) {
            throw new IllegalStateException("redis-server on port " + port + " exited with " + process.exitValue());
        }
        try {
            new Socket("127.0.0.1", port).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean onPath() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "redis-server"))) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
