package dev.baton.bootstrap.config;

import java.util.Locale;

/** How a job's effect is made durable. */
public enum Mode {
    /** Effects and completion records commit together in PostgreSQL: a job's effect never commits twice. */
    EXACTLY_ONCE,
    /** No ledger: a redelivered job runs again, so handlers must be idempotent. */
    AT_LEAST_ONCE;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
