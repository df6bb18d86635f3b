package dev.baton.adapters.redis;

import dev.baton.application.port.out.TransportException;
import dev.baton.domain.Backoff;
import io.lettuce.core.RedisException;
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
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The adapter's first connection to Redis: made at open, or, when Redis need not answer then, in the background,
 * tried again with capped exponential backoff until Redis answers. Lettuce reconnects an established connection by
 * itself: only the first one needs this. Until it is made, every call fails at once with a {@link TransportException}
 * saying since when Redis is unreachable and why. One line is logged when Redis does not answer, one when it does.
 */
final class FirstConnection implements AutoCloseable {
    /** The longest wait between two attempts: a server that is back is used within seconds. */
    static final Duration MAX_DELAY = Duration.ofSeconds(5);
    /** 100 ms, doubling up to {@link #MAX_DELAY}: a server that is down is hardly asked. */
    static final Backoff BACKOFF = new Backoff.Exponential(Duration.ofMillis(100), 2, MAX_DELAY);

    private static final Logger LOG = LoggerFactory.getLogger(FirstConnection.class);

    /** Since when Redis has not answered, and why the last attempt failed. */
    private record Outage(Instant since, String lastError, int attempts) {
        String describe(String server) {
            return server + " is unreachable since " + since + " (connecting in the background): " + lastError;
        }
    }

    private final String server;
    private final Supplier<TransportParts> connect;
    private final Clock clock;
    private final ScheduledExecutorService attempts;
    private volatile TransportParts parts;
    private volatile Outage outage;
    private boolean closed; // guarded by this

    private FirstConnection(String server, Supplier<TransportParts> connect, Clock clock,
                            ScheduledExecutorService attempts) {
        this.server = server;
        this.connect = connect;
        this.clock = clock;
        this.attempts = attempts;
        this.outage = new Outage(clock.instant(), "the first attempt is under way", 0);
    }

    /**
     * Connects now.
     *
     * @param server names the server in messages, its password masked: {@code Redis at redis://host:port}
     * @throws TransportException when Redis does not answer
     */
    static FirstConnection now(String server, Supplier<TransportParts> connect, Clock clock) {
        FirstConnection connection = new FirstConnection(server, connect, clock, null);
        try {
            connection.parts = connect.get();
            connection.outage = null;
            return connection;
        } catch (RedisException e) {
            throw new TransportException("cannot connect to " + server + ": " + reason(e), e);
        }
    }

    /**
     * Connects in the background, and waits up to {@code firstWait} for the first attempt: an adapter opened on a
     * Redis that answers is connected when it is returned.
     */
    static FirstConnection inBackground(String server, Supplier<TransportParts> connect, Clock clock,
                                        Duration firstWait) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread attempt = new Thread(runnable, "baton-redis-connect");
            attempt.setDaemon(true);
            return attempt;
        });
        FirstConnection connection = new FirstConnection(server, connect, clock, thread);
        CompletableFuture<Void> first = CompletableFuture.runAsync(connection::attempt, thread);
        try {
            first.get(firstWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // still trying: calls fail at once meanwhile
        }
        return connection;
    }

    /** @throws TransportException at once while Redis has never answered */
    TransportParts parts() {
        TransportParts connected = parts;
        if (connected != null) {
            return connected;
        }
        Outage down = outage;
        if (down == null) {
            throw new TransportException(server + " is closed");
        }
        throw new TransportException(down.describe(server));
    }

    /** Why there is no connection yet; empty once Redis answered. */
    Optional<String> whyNotConnected() {
        Outage down = outage;
        return parts != null || down == null ? Optional.empty() : Optional.of(down.describe(server));
    }

    private void attempt() {
        TransportParts made;
        try {
            made = connect.get();
        } catch (RuntimeException e) {
            failed(e);
            return;
        }
        synchronized (this) {
            if (closed) {
                made.close();
                return;
            }
            parts = made;
        }
        Outage was = outage;
        outage = null;
        attempts.shutdown();
        if (was.attempts() > 0) {
            LOG.info("{} answers: connected after {} failed attempts since {}", server, was.attempts(), was.since());
        }
    }

    private void failed(RuntimeException e) {
        synchronized (this) {
            if (closed) {
                return;
            }
            Outage now = new Outage(outage.since(), reason(e), outage.attempts() + 1);
            outage = now;
            Duration delay = BACKOFF.delayBefore(now.attempts());
            if (now.attempts() == 1) {
                LOG.warn("{} is unreachable: {}; connecting in the background (at least every {} s), calls fail at"
                        + " once until then", server, now.lastError(), MAX_DELAY.toSeconds());
            } else {
                LOG.debug("{} is still unreachable after {} attempts: {}", server, now.attempts(), now.lastError());
            }
            try {
                attempts.schedule(this::attempt, delay.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException shutDown) {
                // closed meanwhile
            }
        }
    }

    /** The client's message and its root cause's, without a password: what an operator needs to act. */
    static String reason(RuntimeException e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String reason = root == e ? e.getMessage() : e.getMessage() + " (" + root.getMessage() + ")";
        return RedisAdapter.Config.masked(String.valueOf(reason));
    }

    /** Stops connecting, and closes the connections if they were made. */
    @Override
    public void close() {
        TransportParts made;
        synchronized (this) {
            closed = true;
            made = parts;
        }
        if (attempts != null) {
            attempts.shutdownNow();
        }
        outage = null;
        parts = null;
        if (made != null) {
            made.close();
        }
    }
}
