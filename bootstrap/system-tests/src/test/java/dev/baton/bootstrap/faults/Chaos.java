package dev.baton.bootstrap.faults;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The faults, each injected on a running {@link Scenario} and counted in its tally. Timing comes from the queue's
 * progress and the servers' state (no sleeps): a fault waits for the moment it is meant to hit.
 */
final class Chaos {
    private static final Duration LONG_ENOUGH = Duration.ofMinutes(2);
    private static final Pattern TRIMMED = Pattern.compile("trimmed (\\d+) entries");

    private final Scenario scenario;

    Chaos(Scenario scenario) {
        this.scenario = scenario;
    }

    /**
     * Waits until {@code fraction} of the jobs enqueued so far reached an outcome, for as long as jobs keep reaching
     * one: a loaded machine that restarts crashed workers slowly is slow, not stuck.
     */
    void awaitProgress(double fraction) {
        long target = (long) Math.ceil(scenario.jobs().size() * fraction);
        new Progressing(LONG_ENOUGH, Duration.ofMillis(50 + scenario.random().nextInt(200)))
                .until("progress " + fraction, scenario::settled, supervised(() -> scenario.settled() >= target));
    }

    /** Waits until no completion commits for a second (jobs in flight finished or failed). */
    void awaitLedgerQuiet() {
        AtomicLong last = new AtomicLong(-1);
        await("ledger quiet").atMost(LONG_ENOUGH).pollInterval(Duration.ofMillis(1000)).ignoreExceptions()
                .until(() -> {
                    long now = scenario.ledger().completedCount();
                    return now == last.getAndSet(now);
                });
    }

    /**
     * {@code kill -9} of a random worker, then a restart: at once (it resumes its own pending entries) or once the
     * others reclaimed them. Entries that were pending for the victim while their job's completion row already
     * existed were killed between the PostgreSQL commit and the XACK: counted. Workers that crashed by themselves
     * (a poison job halted them) are restarted first, so that the victim is a running one.
     */
    void killWorker(WorkerFleet fleet) {
        scenario.restartCrashedWorkers();
        WorkerProcess victim = fleet.pick(scenario.random());
        victim.kill();
        scenario.faults().count("kill -9");
        countCommittedButUnacknowledged(victim.consumer());
        if (scenario.random().nextBoolean()) {
            awaitTakeover(victim + "'s entries reclaimed", fleet,
                    () -> scenario.probe().pendingOf(victim.consumer()).isEmpty());
        }
        victim.start();
    }

    private void countCommittedButUnacknowledged(String consumer) {
        Map<String, String> jobIds = scenario.probe().jobIdsOf(scenario.probe().pendingOf(consumer));
        long committed = jobIds.values().stream().filter(scenario.ledger()::isCompleted).count();
        for (long i = 0; i < committed; i++) {
            scenario.faults().count("kill -9 between commit and XACK");
        }
    }

    /**
     * {@code kill -STOP} of a worker that holds leases, until every entry it held was reclaimed by another worker
     * (longer than the lease), then {@code kill -CONT}. @return the frozen worker
     */
    WorkerProcess freezeWorker(WorkerFleet fleet) {
        WorkerProcess victim = await("a worker holding leases").atMost(LONG_ENOUGH).ignoreExceptions()
                .until(supervised(() -> fleet.workers().stream().filter(WorkerProcess::isAlive)
                        .filter(w -> !scenario.probe().pendingOf(w.consumer()).isEmpty()).findAny()),
                        Optional::isPresent).orElseThrow();
        victim.freeze();
        Set<String> held = Set.copyOf(scenario.probe().pendingOf(victim.consumer()));
        scenario.faults().count("kill -STOP beyond the lease");
        long frozenAt = System.nanoTime();
        awaitTakeover(victim + "'s leases taken over", fleet,
                () -> scenario.probe().pendingOf(victim.consumer()).stream().noneMatch(held::contains));
        // what a frozen worker costs the others: each entry it held is a suspect that runs alone
        scenario.note(victim + " froze holding " + held.size() + " entries, all taken over in "
                + Duration.ofNanos(System.nanoTime() - frozenAt).toSeconds() + "s");
        victim.resume();
        return victim;
    }

    /**
     * {@link #freezeWorker} with a few 5 s jobs enqueued first, so that some worker surely holds a lease to lose even
     * when the backlog is short.
     */
    WorkerProcess freezeWorkerMidJob(WorkerFleet fleet) {
        scenario.enqueue(JobMix.plain().sleepingExactly(5_000), 3);
        return freezeWorker(fleet);
    }

    /**
     * SIGTERM to every worker with jobs in flight; each that was consuming must exit 0 (one still starting up has
     * no graceful stop yet and dies of the signal: counted); then all start again.
     */
    void stopGracefully(WorkerFleet fleet) {
        List<Boolean> consuming = fleet.workers().stream().map(WorkerProcess::hasStarted).toList();
        List<Integer> exitCodes = fleet.terminateAll(60);
        scenario.faults().count("SIGTERM all workers");
        for (int i = 0; i < exitCodes.size(); i++) {
            if (!consuming.get(i)) {
                scenario.faults().count("SIGTERM during a worker's start-up (exit " + exitCodes.get(i) + ")");
            } else if (exitCodes.get(i) != 0) {
                throw new AssertionError("graceful stop exited " + exitCodes + "; log "
                        + fleet.workers().get(i).log());
            }
        }
        fleet.workers().forEach(WorkerProcess::start);
    }

    /** {@code kill -9} of the Redis server and a restart on the same data. */
    void crashRedis(PrivateRedis redis) {
        redis.crashAndRestart();
        scenario.faults().count("redis kill -9 + restart");
    }

    /** {@code pg_terminate_backend} on every client backend of the private cluster (handlers, commits, idle). */
    void terminateBackends(PrivatePostgres postgres) {
        int terminated = postgres.terminateBackends();
        scenario.faults().count("pg_terminate_backend round");
        for (int i = 0; i < terminated; i++) {
            scenario.faults().count("backend terminated");
        }
    }

    /** PostgreSQL crash ({@code pg_ctl stop -m immediate}) and restart. */
    void crashPostgres(PrivatePostgres postgres) {
        postgres.crash();
        postgres.startServer();
        scenario.faults().count("postgres crash + restart");
    }

    /** {@code baton trim --queue Q}, as an operator's cron would run it. */
    void trim() {
        String report = scenario.cli().runOk("trim", "--queue", scenario.queue()).stdout();
        scenario.faults().count("trim");
        Matcher removed = TRIMMED.matcher(report);
        if (removed.find() && Long.parseLong(removed.group(1)) > 0) {
            scenario.faults().count("trim that removed entries");
        }
        if (report.contains("held back")) {
            scenario.faults().count("trim held back by pending work");
        }
    }

    /** What a failover to a stale replica does to the group: deliveries and acknowledgements forgotten. */
    void rollBackGroup() {
        scenario.probe().rollBackGroupTo("0");
        scenario.faults().count("XGROUP SETID 0");
    }

    /**
     * Waits, restarting crashed workers meanwhile, until the others took over what a worker held; a timeout tells
     * what each worker was doing, so that a stalled takeover can be told from a stalled supervisor.
     */
    private void awaitTakeover(String what, WorkerFleet fleet, Callable<Boolean> done) {
        try {
            await(what).atMost(LONG_ENOUGH).ignoreExceptions().until(supervised(done));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + ": not within " + LONG_ENOUGH.toSeconds() + "s; the workers:\n"
                    + fleet.status(), e);
        }
    }

    /**
     * A wait's condition that first does what a supervisor does meanwhile: restart the workers that crashed (a poison
     * job halted them) — not those a fault stopped on purpose, which the fault restarts itself.
     */
    private <T> Callable<T> supervised(Callable<T> condition) {
        return () -> {
            scenario.restartCrashedWorkers();
            return condition.call();
        };
    }
}
