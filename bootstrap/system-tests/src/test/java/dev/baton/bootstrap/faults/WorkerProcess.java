package dev.baton.bootstrap.faults;

import dev.baton.bootstrap.demo.OrdersHandler;
import dev.baton.bootstrap.testing.BatonCli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One {@code baton worker} process under a stable consumer name: restarting it resumes the same consumer (and so
 * its own pending entries), like a supervisor would restart a crashed worker.
 */
final class WorkerProcess {
    /** What {@code baton worker} logs once it consumes (before that, a failure is a failed start). */
    private static final String STARTED = "WorkerCommand - worker started";

    private final BatonCli cli;
    private final String consumer;
    private final List<String> args;
    private final Path log;
    private Process process;
    private long logOffset;
    /** Killed by a fault, which restarts it itself when it means to: no supervisor's business. */
    private boolean killedOnPurpose;
    /** Stopped by {@code kill -STOP}: it answers no thread dump until resumed. */
    private boolean frozen;
    private Instant startedAt;

    WorkerProcess(BatonCli cli, String queue, String consumer, List<String> extraArgs, Path log) {
        this.cli = cli;
        this.consumer = consumer;
        this.log = log;
        List<String> all = new ArrayList<>(List.of("worker", "--queue", queue, "--consumer", consumer));
        all.addAll(extraArgs);
        this.args = List.copyOf(all);
    }

    String consumer() {
        return consumer;
    }

    Path log() {
        return log;
    }

    synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(consumer + " is already running");
        }
        logOffset = log.toFile().length();
        killedOnPurpose = false;
        frozen = false;
        startedAt = Instant.now();
        process = Processes.reaped(cli.startAppendingTo(log, args));
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Starts the worker again if it died by itself, like a supervisor would.
     *
     * @return why it had died, or empty when it was alive or {@linkplain #kill() killed} on purpose
     */
    synchronized Optional<String> restartIfDead() {
        if (process == null || process.isAlive() || killedOnPurpose) {
            return Optional.empty();
        }
        String lastRun = lastRunLog();
        String why;
        if (process.exitValue() == OrdersHandler.CRASH_STATUS) {
            why = "worker halted by a poison job";
        } else if (!lastRun.contains(STARTED)) {
            why = "worker failed to start (exit " + process.exitValue() + ")";
        } else {
            why = "worker stopped unexpectedly (exit " + process.exitValue() + ")";
        }
        start();
        return Optional.of(why);
    }

    /** Whether the current run got as far as consuming (before that, no graceful stop is set up). */
    synchronized boolean hasStarted() {
        return lastRunLog().contains(STARTED);
    }

    private String lastRunLog() {
        String text = logText();
        return text.substring((int) Math.min(logOffset, text.length()));
    }

    /** {@code kill -9}: no shutdown hook, no cleanup, leases left pending. */
    synchronized void kill() {
        killedOnPurpose = true;
        Processes.killHard(process);
    }

    /** {@code kill -STOP}: the process keeps its connections and leases but does nothing. */
    synchronized void freeze() {
        Processes.signal(process.pid(), "STOP");
        frozen = true;
    }

    /** {@code kill -CONT}. */
    synchronized void resume() {
        Processes.signal(process.pid(), "CONT");
        frozen = false;
    }

    /** Sends SIGTERM (a graceful stop) and does not wait. */
    synchronized void terminate() {
        process.destroy();
    }

    /** Waits for the process to exit. @return its exit code */
    int awaitExit(long seconds) {
        Process current;
        synchronized (this) {
            current = process;
        }
        try {
            if (!current.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException(consumer + " did not exit within " + seconds + "s; log " + log);
            }
            return current.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String logText() {
        try {
            return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Running (or frozen), or how it ended, when its current run started and the last line that run logged; for a
     * running one also what each of its threads is in (the whole dump goes beside its log): what a wait that timed
     * out reports.
     */
    synchronized String status() {
        String state = process == null ? "not started" : process.isAlive() ? (frozen ? "frozen" : "running")
                : "exited " + process.exitValue() + (killedOnPurpose ? " (killed)" : "");
        String run = lastRunLog().strip();
        // a run that logged nothing yet is still starting (or hangs there): its last run's lines would mislead
        String status = consumer + " " + state + ", started at " + startedAt + ", " + (run.isEmpty()
                ? "nothing logged since" : "last logged: " + run.substring(run.lastIndexOf('\n') + 1));
        if (process == null || !process.isAlive() || frozen) {
            return status;
        }
        String dump = Processes.threadDump(process.pid(), log.resolveSibling(consumer + "-threads.txt"));
        return status + ThreadSummary.of(dump).stream().map(line -> "\n    " + line).collect(Collectors.joining());
    }

    @Override
    public String toString() {
        return consumer;
    }
}
