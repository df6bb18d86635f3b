package dev.baton.bootstrap.faults;

import dev.baton.bootstrap.testing.BatonCli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/** Several {@code baton worker} processes on one queue, under stable consumer names ({@code w1}, {@code w2}...). */
final class WorkerFleet implements AutoCloseable {
    private final List<WorkerProcess> workers;
    private final FaultTally faults;

    WorkerFleet(BatonCli cli, String queue, int size, List<String> extraArgs, Path logDir, FaultTally faults) {
        this.faults = faults;
        List<WorkerProcess> all = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            all.add(new WorkerProcess(cli, queue, "w" + i, extraArgs, logDir.resolve("w" + i + ".log")));
        }
        this.workers = List.copyOf(all);
    }

    WorkerFleet startAll() {
        workers.forEach(WorkerProcess::start);
        return this;
    }

    List<WorkerProcess> workers() {
        return workers;
    }

    /** Each worker's {@link WorkerProcess#status}, one a line. */
    String status() {
        return workers.stream().map(WorkerProcess::status).collect(Collectors.joining("\n"));
    }

    WorkerProcess pick(Random random) {
        return workers.get(random.nextInt(workers.size()));
    }

    /** What a supervisor does: starts again every worker that died by itself (not killed on purpose), counting why. */
    void restartDead() {
        for (WorkerProcess worker : workers) {
            worker.restartIfDead().ifPresent(why -> faults.count(why + ", restarted"));
        }
    }

    /** SIGTERM to every worker at once, then waits for each. @return the exit codes, in worker order */
    List<Integer> terminateAll(long seconds) {
        workers.forEach(WorkerProcess::terminate);
        return workers.stream().map(w -> w.awaitExit(seconds)).toList();
    }

    void killAll() {
        workers.stream().filter(WorkerProcess::isAlive).forEach(WorkerProcess::kill);
    }

    @Override
    public void close() {
        for (WorkerProcess worker : workers) {
            if (worker.isAlive()) {
                worker.resume();
                worker.kill();
            }
        }
    }
}
