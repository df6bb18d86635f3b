package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Backoff;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether PostgreSQL is ready for the ledger: it answered, and the schema is migrated when the adapter migrates on
 * start. Made ready at open; or, when PostgreSQL need not answer then, in the background, tried again with capped
 * exponential backoff, so that the migrations run at the first moment the server answers, before any ledger call.
 * Until then every connection the ledger asks for is refused at once (SQLSTATE 08001, which the ledger reports as
 * {@link LedgerUnavailableException}) saying since when and why. One line is logged when PostgreSQL is not ready, one
 * when it is. A pool that was ready reconnects by itself: readiness is reached once.
 */
final class Readiness implements AutoCloseable {
    /** The longest wait between two attempts: a server that is back is used within seconds. */
    static final Duration MAX_DELAY = Duration.ofSeconds(5);
    private static final Backoff BACKOFF = new Backoff.Exponential(Duration.ofMillis(100), 2, MAX_DELAY);
    /** sqlclient_unable_to_establish_sqlconnection: what the driver reports for a server that does not answer. */
    private static final String UNABLE_TO_CONNECT = "08001";
    private static final Logger LOG = LoggerFactory.getLogger(Readiness.class);

    /** Since when the server has not been ready, and why the last attempt failed: no answer, or another reason. */
    private record NotReady(Instant since, String lastError, boolean unreachable, int attempts) {
        String describe(String server) {
            return server + (unreachable ? " is unreachable since " : " is not ready since ") + since
                    + " (connecting in the background): " + lastError;
        }
    }

    private final String server;
    private final Runnable prepare;
    private final ScheduledExecutorService attempts;
    /** Null once ready. */
    private volatile NotReady notReady;
    private boolean closed; // guarded by this

    private Readiness(String server, Runnable prepare, Instant since, ScheduledExecutorService attempts) {
        this.server = server;
        this.prepare = prepare;
        this.attempts = attempts;
        this.notReady = new NotReady(since, "the first attempt is under way", false, 0);
    }

    /**
     * Makes PostgreSQL ready now.
     *
     * @param prepare checks that the server answers, and migrates; throws when it cannot
     */
    static Readiness now(String server, Runnable prepare) {
        prepare.run();
        Readiness ready = new Readiness(server, prepare, Instant.EPOCH, null);
        ready.notReady = null;
        return ready;
    }

    /**
     * Makes PostgreSQL ready in the background, and waits up to {@code firstWait} for the first attempt: an adapter
     * opened on a PostgreSQL that answers is ready when it is returned, unless its migrations take longer.
     *
     * @param server names the server in messages, its password masked: {@code PostgreSQL at jdbc:postgresql://...}
     */
    static Readiness inBackground(String server, Runnable prepare, Clock clock, Duration firstWait) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread attempt = new Thread(runnable, "baton-postgres-connect");
            attempt.setDaemon(true);
            return attempt;
        });
        Readiness readiness = new Readiness(server, prepare, clock.instant(), thread);
        try {
            CompletableFuture.runAsync(readiness::attempt, thread).get(firstWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // still trying: the ledger's calls fail at once meanwhile
        }
        return readiness;
    }

    /** @throws SQLException at once (SQLSTATE 08001) while PostgreSQL is not ready */
    void require() throws SQLException {
        NotReady down = notReady;
        if (down != null) {
            throw new SQLNonTransientConnectionException(down.describe(server), UNABLE_TO_CONNECT);
        }
    }

    /** Why PostgreSQL is not ready yet; empty once it is. */
    Optional<String> whyNotReady() {
        return Optional.ofNullable(notReady).map(down -> down.describe(server));
    }

    private void attempt() {
        try {
            prepare.run();
        } catch (RuntimeException e) {
            retryLater(e);
            return;
        }
        NotReady was = notReady;
        notReady = null;
        attempts.shutdown();
        if (was.attempts() > 0) {
            LOG.info("{} is ready: connected after {} failed attempts since {}", server, was.attempts(), was.since());
        }
    }

    private synchronized void retryLater(RuntimeException e) {
        if (closed) {
            return;
        }
        NotReady now = new NotReady(notReady.since(), reason(e), SqlFailures.isConnectionLoss(e),
                notReady.attempts() + 1);
        notReady = now;
        if (now.attempts() == 1) {
            LOG.warn("{} is not ready: {}; trying again in the background (at least every {} s), the ledger's calls"
                    + " fail at once until then", server, now.lastError(), MAX_DELAY.toSeconds());
        } else {
            LOG.debug("{} is still not ready after {} attempts: {}", server, now.attempts(), now.lastError());
        }
        try {
            attempts.schedule(this::attempt, BACKOFF.delayBefore(now.attempts()).toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException shutDown) {
            // closed meanwhile
        }
    }

    /** The driver's message when the server did not answer (the URL is in the server's name already). */
    private static String reason(RuntimeException e) {
        Optional<SQLException> driver = e instanceof LedgerUnavailableException ? SqlFailures.sqlException(e)
                : Optional.empty();
        return JdbcUrls.masked(driver.map(sql -> sql.getMessage() + " [SQLSTATE " + sql.getSQLState() + "]")
                .orElseGet(() -> String.valueOf(e.getMessage())));
    }

    /** Stops trying. */
    @Override
    public synchronized void close() {
        closed = true;
        if (attempts != null) {
            attempts.shutdownNow();
        }
    }
}
