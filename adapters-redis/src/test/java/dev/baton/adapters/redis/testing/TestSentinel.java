package dev.baton.adapters.redis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * A private Redis behind Sentinel on loopback: a primary with a password, its replica, and three Sentinels
 * monitoring them (quorum 2), all started from the {@code redis-server} on the PATH ({@code --sentinel} mode for the
 * Sentinels), on free ports, without persistence. A test may kill the primary; the Sentinels then promote the
 * replica. {@link #close} kills every process and deletes the temporary directories. Never touches the shared server.
 */
public final class TestSentinel implements AutoCloseable {
    public static final String MASTER_NAME = "baton-primary";
    public static final String PASSWORD = "sentinel-test-secret";
    /** Short, so that a killed primary is found down, and its replica promoted, within a few seconds. */
    private static final Duration DOWN_AFTER = Duration.ofMillis(1000);

    private final List<Server> servers = new ArrayList<>();
    private final List<Server> sentinels = new ArrayList<>();

    private record Server(int port, Path dir, Process process) {
    }

    private TestSentinel() {
    }

    /**
     * Starts the primary, its replica and three Sentinels; returns when the replica is in sync and every Sentinel
     * sees the master as ok with one replica and two other Sentinels.
     *
     * @throws IllegalStateException when the setup cannot be started, saying why
     */
    public static TestSentinel start() {
        TestSentinel setup = new TestSentinel();
        try {
            Server primary = setup.startServer(List.of());
            setup.startServer(List.of("--replicaof", "127.0.0.1", Integer.toString(primary.port())));
            for (int i = 0; i < 3; i++) {
                setup.startSentinel(primary.port());
            }
            Awaitility.await("replica in sync").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> setup.cli(setup.servers.get(1).port(), "INFO", "replication")
                            .contains("master_link_status:up"));
            Awaitility.await("every Sentinel sees the master, its replica and the other Sentinels")
                    .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> setup.sentinels.stream().allMatch(sentinel -> setup.sentinelCli(sentinel.port(),
                            "INFO", "sentinel").contains("status=ok,address=127.0.0.1:" + primary.port()
                            + ",slaves=1,sentinels=3")));
            return setup;
        } catch (IOException | RuntimeException e) {
            setup.close();
            throw new IllegalStateException("cannot start Redis behind Sentinel from redis-server on the PATH: "
                    + e.getMessage(), e);
        }
    }

    /** {@code redis-sentinel://:password@127.0.0.1:s1,127.0.0.1:s2,127.0.0.1:s3#baton-primary} */
    public String uri() {
        return "redis-sentinel://:" + PASSWORD + "@" + sentinels.stream().map(s -> "127.0.0.1:" + s.port())
                .collect(Collectors.joining(",")) + "#" + MASTER_NAME;
    }

    /** The port of the server the Sentinels name as the master now (asked of the first live Sentinel). */
    public int masterPort() {
        String[] reply = sentinelCli(sentinels.get(0).port(), "SENTINEL", "get-master-addr-by-name", MASTER_NAME)
                .trim().split("\\s+");
        return Integer.parseInt(reply[reply.length - 1]);
    }

    /** The port of the data server that is not the master now. */
    public int replicaPort() {
        int master = masterPort();
        return servers.stream().mapToInt(Server::port).filter(port -> port != master).findFirst().orElseThrow();
    }

    /** Kills the server on {@code port} with SIGKILL, as a crash would. */
    public void kill(int port) {
        TestProcesses.kill(servers.stream().filter(s -> s.port() == port).findFirst().orElseThrow().process());
    }

    /** True when a server other than {@code oldMaster} is a master that the Sentinels name and that accepts writes. */
    public boolean promotedOtherThan(int oldMaster) {
        int master = masterPort();
        return master != oldMaster && cli(master, "ROLE").startsWith("master");
    }

    /** Everything the master wrote has reached its replica (their replication offsets are equal). */
    public boolean replicated() {
        String info = cli(masterPort(), "INFO", "replication");
        return info.contains("connected_slaves:1")
                && info.contains("offset=" + info(masterPort(), "replication", "master_repl_offset") + ",");
    }

    /** One field of a data server's {@code INFO section}; empty when it has none. */
    public String info(int port, String section, String field) {
        return cli(port, "INFO", section).lines().filter(line -> line.startsWith(field + ":"))
                .map(line -> line.substring(field.length() + 1).trim()).findFirst().orElse("");
    }

    /** Runs a command on a data server (with the password) and returns its output. */
    public String cli(int port, String... command) {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port), "-a", PASSWORD,
                "--no-auth-warning"));
        args.addAll(List.of(command));
        return TestProcesses.run(args, Duration.ofSeconds(20));
    }

    private String sentinelCli(int port, String... command) {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        args.addAll(List.of(command));
        return TestProcesses.run(args, Duration.ofSeconds(20));
    }

    private Server startServer(List<String> extra) throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("baton-sentinel-redis-" + port + "-");
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--requirepass", PASSWORD, "--masterauth", PASSWORD,
                "--dir", dir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no"));
        command.addAll(extra);
        Server server = new Server(port, dir, launch(command, dir));
        servers.add(server);
        Awaitility.await("redis-server on port " + port).atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50)).until(() -> cli(port, "PING").contains("PONG"));
        return server;
    }

    /** A Sentinel needs a configuration file of its own: it rewrites it with what it learns. */
    private void startSentinel(int primaryPort) throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("baton-sentinel-" + port + "-");
        Path config = dir.resolve("sentinel.conf");
        Files.writeString(config, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir " + dir,
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + primaryPort + " 2",
                "sentinel auth-pass " + MASTER_NAME + " " + PASSWORD,
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER.toMillis(),
                "sentinel failover-timeout " + MASTER_NAME + " 10000",
                "sentinel parallel-syncs " + MASTER_NAME + " 1", ""));
        Server sentinel = new Server(port, dir, launch(List.of("redis-server", config.toString(), "--sentinel"), dir));
        sentinels.add(sentinel);
        Awaitility.await("redis-sentinel on port " + port).atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50)).until(() -> sentinelCli(port, "PING").contains("PONG"));
    }

    private static Process launch(List<String> command, Path dir) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile())
                .start();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    @Override
    public void close() {
        List<Server> all = new ArrayList<>(sentinels);
        all.addAll(servers);
        all.forEach(server -> server.process().destroyForcibly());
        all.forEach(server -> {
            TestProcesses.kill(server.process());
            TestProcesses.delete(server.dir());
        });
    }
}
