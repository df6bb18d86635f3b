package dev.baton.bootstrap.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of the test's own ({@code initdb} + {@code pg_ctl} as the {@code postgres} OS user, on a free
 * port, data in a temporary directory), so that a test may crash, restart it and terminate its backends.
 *
 * <p>It runs with {@code fsync=off}: the faults are process crashes, not power losses, and every committed
 * transaction reaches the OS before the commit returns, so nothing a crash of the server process can lose depends on
 * fsync; it saves a lot of disk time on a shared machine.
 */
final class PrivatePostgres implements AutoCloseable {
    private final Path bin;
    private final Path dir;
    private final int port;

    private PrivatePostgres(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    static PrivatePostgres start() {
        Path bin = binaries();
        Path dir = Path.of(asPostgres(List.of("mktemp", "-d", "/tmp/baton-faults-pg-XXXXXX")).trim());
        asPostgres(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", "postgres",
                "-A", "trust", "-E", "UTF8", "--no-sync"));
        PrivatePostgres postgres = new PrivatePostgres(bin, dir, Processes.freePort());
        Processes.atExit(postgres::close);
        postgres.startServer();
        return postgres;
    }

    /** The highest PostgreSQL version installed under /usr/lib/postgresql. */
    private static Path binaries() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
                    .max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString())))
                    .map(v -> v.resolve("bin"))
                    .orElseThrow(() -> new IllegalStateException("no initdb under /usr/lib/postgresql/*/bin:"
                            + " install PostgreSQL (apt-get install postgresql) to run the PostgreSQL faults"));
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL binaries not found under /usr/lib/postgresql", e);
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    void startServer() {
        pgCtl("start", "-w", "-t", "60", "-l", dir.resolve("server.log").toString(), "-o",
                "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100");
    }

    /** {@code pg_ctl stop -m immediate}: the postmaster and its backends die without a checkpoint (crash recovery). */
    void crash() {
        pgCtl("stop", "-w", "-m", "immediate");
    }

    /** Terminates every backend except the one asking. @return how many were terminated */
    int terminateBackends() {
        try (Connection connection = DriverManager.getConnection(jdbcUrl());
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("select count(*) filter (where pg_terminate_backend(pid))"
                     + " from pg_stat_activity where pid <> pg_backend_pid() and backend_type = 'client backend'")) {
            rows.next();
            return rows.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("pg_terminate_backend failed: " + e.getMessage(), e);
        }
    }

    private void pgCtl(String action, String... options) {
        List<String> command = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), action, "-D",
                dir.resolve("data").toString()));
        command.addAll(List.of(options));
        asPostgres(command);
    }

    private static String asPostgres(List<String> command) {
        List<String> full = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        full.addAll(command);
        return Processes.run(full);
    }

    @Override
    public void close() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try {
            pgCtl("stop", "-w", "-m", "immediate");
        } catch (IllegalStateException alreadyStopped) {
            // a test that crashed the server last leaves nothing to stop
        }
        Processes.run(List.of("rm", "-rf", dir.toString()));
    }
}
