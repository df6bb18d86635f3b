package dev.baton.bootstrap.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Small process helpers: signals by pid, one-shot commands, free ports. */
final class Processes {

    /** Processes still alive when the test JVM exits (a test killed midway) are killed with it. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final List<Runnable> CLEANUPS = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LIVE.forEach(Process::destroyForcibly);
            CLEANUPS.forEach(Runnable::run);
        }, "faults-reaper"));
    }

    private Processes() {
    }

    /** Kills {@code process} when the test JVM exits, if it is still alive then. */
    static Process reaped(Process process) {
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        return process;
    }

    /** Runs {@code cleanup} when the test JVM exits (for servers that daemonize, like PostgreSQL). */
    static void atExit(Runnable cleanup) {
        CLEANUPS.add(cleanup);
    }

    /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to the process {@code pid}. */
    static void signal(long pid, String signal) {
        run(List.of("kill", "-" + signal, Long.toString(pid)));
    }

    /** Runs a short command to completion; fails with its output when it exits non-zero. */
    static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + command);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(command + " exited " + process.exitValue() + ":\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes what {@code jcmd <pid> Thread.print} prints (its error, when the JVM does not answer within half a
     * minute) to {@code into}: a stalled JVM tells where each thread is. @return what was written
     */
    static String threadDump(long pid, Path into) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(into.toFile()).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                Files.writeString(into, "jcmd " + pid + " Thread.print: no answer within 30 s");
            }
            return Files.readString(into);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Kills the process with SIGKILL and waits until it is gone. */
    static void killHard(Process process) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("process " + process.pid() + " survived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
