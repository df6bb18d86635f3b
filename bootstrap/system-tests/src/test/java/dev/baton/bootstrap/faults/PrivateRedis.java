package dev.baton.bootstrap.faults;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A redis-server of the test's own, on a free port, with its data in a temporary directory: it may be killed,
 * restarted with the same data, made a replica or promoted, which the shared server must never be.
 */
final class PrivateRedis implements AutoCloseable {

    /** How the server persists the dataset. */
    enum Persistence {
        /** No RDB, no AOF: a restart starts empty. */
        NONE("--save", "", "--appendonly", "no"),
        /** AOF written on every event loop, fsynced once per second. */
        AOF_EVERYSEC("--save", "", "--appendonly", "yes", "--appendfsync", "everysec"),
        /** AOF fsynced before every reply. */
        AOF_ALWAYS("--save", "", "--appendonly", "yes", "--appendfsync", "always");

        private final List<String> args;

        Persistence(String... args) {
            this.args = List.of(args);
        }
    }

    private final Path dir;
    private final int port;
    private final List<String> args;
    private Process process;

    private PrivateRedis(Path dir, int port, List<String> args) {
        this.dir = dir;
        this.port = port;
        this.args = List.copyOf(args);
    }

    static PrivateRedis start(Persistence persistence) {
        return start(persistence, List.of());
    }

    /** A replica of {@code primary} (asynchronous replication), started and in sync. */
    static PrivateRedis replicaOf(PrivateRedis primary) {
        PrivateRedis replica = start(Persistence.NONE, List.of("--replicaof", "127.0.0.1",
                Integer.toString(primary.port)));
        await("replica in sync").atMost(Duration.ofSeconds(30))
                .until(() -> replica.command("INFO", "replication").contains("master_link_status:up"));
        return replica;
    }

    private static PrivateRedis start(Persistence persistence, List<String> extra) {
        try {
            Path dir = Files.createTempDirectory("baton-faults-redis");
            int port = Processes.freePort();
            List<String> args = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--dir", dir.toString(), "--logfile", dir.resolve("redis.log").toString(),
                    "--daemonize", "no"));
            args.addAll(persistence.args);
            args.addAll(extra);
            PrivateRedis redis = new PrivateRedis(dir, port, args);
            redis.startProcess();
            return redis;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** {@code kill -9} the server, then start it again on the same port with the same data directory. */
    void crashAndRestart() {
        crash();
        startProcess();
    }

    /** {@code kill -9}: the dataset keeps only what the persistence settings had written to disk. */
    void crash() {
        Processes.killHard(process);
    }

    /** {@code REPLICAOF NO ONE}: the replica becomes a primary with whatever it had received. */
    void promote() {
        String reply = command("REPLICAOF", "NO", "ONE");
        if (!reply.startsWith("+OK")) {
            throw new IllegalStateException("REPLICAOF NO ONE answered " + reply);
        }
    }

    private void startProcess() {
        try {
            process = Processes.reaped(new ProcessBuilder(args).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile())).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // -LOADING while the AOF is replayed
        await("redis-server on " + port).atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> command("PING").startsWith("+PONG"));
    }

    /** Sends one inline command and returns the raw reply (enough for PING, INFO, REPLICAOF). */
    String command(String... words) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder("*" + words.length + "\r\n");
            for (String word : words) {
                request.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word)
                        .append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[65536];
            int read = in.read(buffer);
            return read <= 0 ? "" : new String(buffer, 0, read, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            Processes.killHard(process);
        }
        Processes.run(List.of("rm", "-rf", dir.toString()));
    }
}
