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
 * Deletes ledger completions older than the retention, on a schedule, while a worker runs. The stream keeps
 * acknowledged history for the same retention, so no redelivery can outlive the completion that stops it.
 */
public final class LedgerJanitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerJanitor.class);

    private final ScheduledExecutorService scheduler;

    public LedgerJanitor(ExecutionLedger ledger, Clock clock, Duration retention, Duration every) {
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-ledger-janitor");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                long forgotten = ledger.forgetCompletedBefore(clock.instant().minus(retention));
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
