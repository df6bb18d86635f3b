package dev.baton.application.service;

import dev.baton.application.port.out.AuditTrail;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.domain.Retention;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forgets the ledger's completions once they are older than the retention plus {@link #SLACK}; one per process,
 * however many workers it runs. The stream keeps acknowledged history for the retention, but trimming runs on a
 * schedule of its own, so an entry can outlive the retention for a while; the slack keeps its completion until the
 * entry is surely gone, so that a group rolled back (failover, {@code XGROUP SETID}) in that window cannot run a
 * completed job again (docs/RELIABILITY.md, "Retention"). In the same pass it forgets the audit trail's entries
 * older than the trail's own retention, when given one.
 */
public final class CompletionJanitor implements AutoCloseable {
    /** Far more than the worker's trim interval (1 min): trimming late by this much is an outage, not a schedule. */
    public static final Duration SLACK = Duration.ofHours(1);

    private static final Logger LOG = LoggerFactory.getLogger(CompletionJanitor.class);

    private final ExecutionLedger ledger;
    private final Retention retention;
    private final Optional<Trail> trail;
    private final Clock clock;
    private final Duration interval;
    private final AtomicBoolean started = new AtomicBoolean();
    // its one thread starts with the first schedule, not before
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "baton-completion-janitor");
        thread.setDaemon(true);
        return thread;
    });

    /** The audit trail and how long its entries are kept. */
    public record Trail(AuditTrail trail, Retention retention) {
        public Trail {
            Objects.requireNonNull(trail, "trail");
            Objects.requireNonNull(retention, "retention");
        }
    }

    /** A janitor of the completions alone that, once {@linkplain #start() started}, runs every {@code interval}. */
    public CompletionJanitor(ExecutionLedger ledger, Retention retention, Clock clock, Duration interval) {
        this(ledger, retention, Optional.empty(), clock, interval);
    }

    /** A janitor of the completions and, if given, the audit trail. */
    public CompletionJanitor(ExecutionLedger ledger, Retention retention, Optional<Trail> trail, Clock clock,
                             Duration interval) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.trail = Objects.requireNonNull(trail, "trail");
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the janitor's interval must be positive, got " + interval);
        }
        this.interval = interval;
    }

    /**
     * Forgets the completions older than the retention plus the slack, then the audit entries older than theirs.
     * @return how many completions it forgot
     */
    public long runOnce() {
        Instant now = clock.instant();
        Instant cutoff = now.minus(retention.maxAge()).minus(SLACK);
        long forgotten = ledger.forgetCompletedBefore(cutoff);
        if (forgotten > 0) {
            LOG.info("forgot expired completions count={} retention={} cutoff={}", forgotten, retention.maxAge(),
                    cutoff);
        }
        trail.ifPresent(kept -> forgetAuditEntries(kept, now));
        return forgotten;
    }

    private static void forgetAuditEntries(Trail kept, Instant now) {
        Instant cutoff = now.minus(kept.retention().maxAge());
        long forgotten = kept.trail().forgetBefore(cutoff);
        if (forgotten > 0) {
            LOG.info("forgot expired audit entries count={} retention={} cutoff={}", forgotten,
                    kept.retention().maxAge(), cutoff);
        }
    }

    /** Runs {@link #runOnce} every interval, the first time one interval from now, until {@link #close}. */
    public CompletionJanitor start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("the completion janitor is started already");
        }
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                runOnce();
            } catch (RuntimeException e) {
                // a scheduled task that throws is never run again: the janitor must outlive a ledger outage
                LOG.warn("forgetting expired completions or audit entries failed, retrying in {}: {}", interval,
                        e.toString());
            }
        }, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
        return this;
    }

    /** Stops the schedule; a run in progress is interrupted. */
    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
