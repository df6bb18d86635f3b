package dev.baton.bootstrap.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A child server process whose output goes to a log file, started and awaited until its ready line appears. */
final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final String name;

    private ServerProcess(Process process, Path log, String name) {
        this.process = process;
        this.log = log;
        this.name = name;
    }

    static ServerProcess start(String name, List<String> command, Path log, String readyLine, Duration timeout) {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new LocalServerException("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
        ServerProcess server = new ServerProcess(process, log, name);
        server.awaitLine(readyLine, timeout);
        return server;
    }

    /** Runs a short command to completion (initdb, chown), failing with its output. */
    static void run(String what, List<String> command, Path log, Duration timeout) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new LocalServerException(what + " did not finish within " + timeout + "; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new LocalServerException(what + " failed (exit " + process.exitValue() + "): " + tail(log));
            }
        } catch (IOException e) {
            throw new LocalServerException("cannot run " + what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalServerException("interrupted while running " + what, e);
        }
    }

    private void awaitLine(String readyLine, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                if (Files.readString(log, StandardCharsets.UTF_8).contains(readyLine)) {
                    return;
                }
                if (!process.isAlive()) {
                    throw new LocalServerException(name + " exited with " + process.exitValue() + ": " + tail(log));
                }
                process.waitFor(50, TimeUnit.MILLISECONDS);
            }
        } catch (IOException e) {
            throw new LocalServerException("cannot read " + log + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new LocalServerException("interrupted while starting " + name, e);
        }
        close();
        throw new LocalServerException(name + " was not ready within " + timeout + ": " + tail(log));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
