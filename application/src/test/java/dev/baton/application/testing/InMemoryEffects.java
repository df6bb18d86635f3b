package dev.baton.application.testing;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A tiny key/value table that a handler writes through {@code context.unwrap(InMemoryEffects.class)} when the worker
 * runs on {@link InMemoryExecutionLedger}: its writes commit with the job's completion or are thrown away with it,
 * like the rows a handler writes through the PostgreSQL ledger's transaction.
 */
public final class InMemoryEffects {
    private final Map<String, String> committed;
    private final Map<String, String> written = new HashMap<>();
    private volatile boolean connectionLost;

    InMemoryEffects(Map<String, String> committed) {
        this.committed = Map.copyOf(committed);
    }

    public void put(String key, String value) {
        written.put(key, value);
    }

    /** Reads this transaction's own writes first, then what was committed when it began. */
    public Optional<String> get(String key) {
        return Optional.ofNullable(written.getOrDefault(key, committed.get(key)));
    }

    /** Adds one to the number stored under {@code key} (0 when absent). @return the new number */
    public long increment(String key) {
        long next = get(key).map(Long::parseLong).orElse(0L) + 1;
        put(key, Long.toString(next));
        return next;
    }

    /**
     * Test hook: the connection under this transaction is gone, as when the JDK closes the socket of a virtual thread
     * interrupted while it waits for PostgreSQL. Nothing commits, and the ledger reports
     * {@code LedgerUnavailableException}, as the PostgreSQL ledger does for a lost connection.
     */
    public void loseConnection() {
        connectionLost = true;
    }

    boolean connectionLost() {
        return connectionLost;
    }

    Map<String, String> written() {
        return written;
    }
}
