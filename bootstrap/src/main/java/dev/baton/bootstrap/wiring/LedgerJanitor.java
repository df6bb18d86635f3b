package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.ExecutionLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes ledger completions older than the retention plus a slack, on a schedule, while a worker runs. The stream
 * keeps acknowledged history for the retention, but trimming runs on a schedule of its own, so an entry can outlive
 * the retention for a while; the slack keeps its completion until it is surely gone, so that a group rolled back
 * (failover, {@code XGROUP SETID}) in that window cannot run a completed job again.
 */
public final class LedgerJanitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerJanitor.class);
    /** Far more than the worker's trim interval (1 min): trimming late by this much is an outage, not a schedule. */
    static final Duration TRIM_SLACK = Duration.ofHours(1);

    private final ScheduledExecutorService scheduler;

    public LedgerJanitor(ExecutionLedger ledger, Clock clock, Duration retention, Duration every) {
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-ledger-janitor");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                long forgotten = ledger.forgetCompletedBefore(clock.instant().minus(retention).minus(TRIM_SLACK));
                if (forgotten > 0) {
                    LOG.info("forgot expired completions count={} retention={}", forgotten, retention);
                }
            } catch (RuntimeException e) {
                LOG.warn("forgetting expired completions failed, retrying later error={}", e.toString());
            }
        }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
