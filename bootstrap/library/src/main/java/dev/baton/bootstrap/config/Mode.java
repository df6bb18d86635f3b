package dev.baton.bootstrap.config;

import java.util.Locale;

/** How a job's effect is made durable. */
public enum Mode {
    /** Effects and completion records commit together in PostgreSQL: a job's effect never commits twice. */
    EXACTLY_ONCE,
    /** No ledger: a redelivered job runs again, so handlers must be idempotent. */
    AT_LEAST_ONCE;

    /** @throws IllegalArgumentException naming the two modes */
    public static Mode parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "exactly-once" -> EXACTLY_ONCE;
            case "at-least-once" -> AT_LEAST_ONCE;
            default -> throw new IllegalArgumentException("expected exactly-once or at-least-once");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
