package dev.baton.application.service.worker;

import dev.baton.application.service.FailureStreak;
import dev.baton.domain.ConsumerName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a worker's background loops at fixed delays, each pass guarded: a loop never dies of one failure. The deadline
 * sweep has a thread of its own; the other loops share two, so that a slow reclaim or trim never delays the lease
 * extension of running jobs. A loop's failures in a row (a server that is down) log one warning, and one line when it
 * works again ({@link FailureStreak}).
 */
final class Loops {
    private static final Logger LOG = LoggerFactory.getLogger(Loops.class);

    private final ConsumerName consumer;
    private final ScheduledExecutorService deadlines;
    private final ScheduledExecutorService loops;
    private final List<Planned> planned = new ArrayList<>();
    private final List<ScheduledFuture<?>> endWithLeasing = new ArrayList<>();

    Loops(ConsumerName consumer, WorkerThreads threads) {
        this.consumer = consumer;
        this.deadlines = Executors.newSingleThreadScheduledExecutor(threads.platform("timeout"));
        this.loops = Executors.newScheduledThreadPool(2, threads.platform("loop"));
    }

    private record Planned(String name, BackgroundLoop<?> loop, ScheduledExecutorService on, Duration initialDelay,
                           Duration interval, boolean endsWithLeasing, FailureStreak failures) {
        Planned(String name, BackgroundLoop<?> loop, ScheduledExecutorService on, Duration initialDelay,
                Duration interval, boolean endsWithLeasing) {
            this(name, loop, on, initialDelay, interval, endsWithLeasing, new FailureStreak());
        }
    }

    /** The deadline sweep, on its own thread; runs until shutdown. */
    Loops sweepingDeadlines(BackgroundLoop<?> sweep, Duration interval) {
        planned.add(new Planned("deadline sweep", sweep, deadlines, interval, interval, false));
        return this;
    }

    /** A loop that runs until shutdown: through the grace period of a stop too. */
    Loops untilShutdown(String name, BackgroundLoop<?> loop, Duration initialDelay, Duration interval) {
        planned.add(new Planned(name, loop, loops, initialDelay, interval, false));
        return this;
    }

    /** A loop that serves leasing, and ends when leasing stops. */
    Loops whileLeasing(String name, BackgroundLoop<?> loop, Duration initialDelay, Duration interval) {
        planned.add(new Planned(name, loop, loops, initialDelay, interval, true));
        return this;
    }

    synchronized void start() {
        for (Planned plan : planned) {
            ScheduledFuture<?> scheduled = plan.on().scheduleWithFixedDelay(() -> runGuarded(plan),
                    plan.initialDelay().toNanos(), plan.interval().toNanos(), TimeUnit.NANOSECONDS);
            if (plan.endsWithLeasing()) {
                endWithLeasing.add(scheduled);
            }
        }
    }

    /** Ends the loops that serve leasing; a pass under way finishes. */
    synchronized void leasingStopped() {
        endWithLeasing.forEach(scheduled -> scheduled.cancel(false));
    }

    void shutdownNow() {
        loops.shutdownNow();
        deadlines.shutdownNow();
    }

    private void runGuarded(Planned plan) {
        try {
            plan.loop().runOnce();
        } catch (RuntimeException e) {
            // a scheduled task that throws is never run again: this loop must outlive any failure
            LOG.atLevel(plan.failures().failed()).log("{} failed, retrying every {} consumer={}: {}", plan.name(),
                    plan.interval(), consumer, e.toString());
            return;
        }
        int failed = plan.failures().succeeded();
        if (failed > 0) {
            LOG.info("{} works again after {} failed passes consumer={}", plan.name(), failed, consumer);
        }
    }
}
