package dev.baton.application.service;

import dev.baton.domain.InvalidValueException;
import java.util.Locale;

/**
 * What runs a worker's jobs. Baton is built for Java 17, so virtual threads are reached reflectively and only where
 * the runtime has them. The rule {@link #AUTO} follows: a job that commits on its own waits for PostgreSQL once per
 * round trip, and a virtual thread parks on the JDK's poller instead of putting an OS thread to sleep; a batch runs
 * hundreds of round trips one after the other on a few threads, and there every round trip would wake the poller and
 * a carrier, so platform threads do better. The measurements behind it: docs/BENCHMARKS.md, "Why it is built this
 * way".
 */
public enum JobThreads {
    /**
     * Virtual threads on Java 24 and later when every job commits on its own ({@code batchCommit} 1); platform
     * threads before Java 24 and for batched commits.
     */
    AUTO,
    /** A fixed pool of platform threads, one per unit of concurrency. */
    PLATFORM,
    /** One virtual thread per job (or batch); needs Java 21 or later. */
    VIRTUAL;

    /** The first Java release with virtual threads (JEP 444). */
    public static final int VIRTUAL_SINCE = 21;
    /**
     * The first Java release where a {@code synchronized} block no longer pins a virtual thread to its carrier
     * (JEP 491). Before it, a handler's library blocking inside {@code synchronized} could hold every carrier and
     * stall the worker, so {@link #AUTO} chooses virtual threads only from here on.
     */
    static final int UNPINNED_SINCE = 24;

    /** {@code auto}, {@code platform} or {@code virtual}, case-insensitive. */
    public static JobThreads parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "platform" -> PLATFORM;
            case "virtual" -> VIRTUAL;
            default -> throw new InvalidValueException("job threads must be auto, platform or virtual, got '" + text
                    + "'");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * What this choice means, {@link #PLATFORM} or {@link #VIRTUAL}, for a worker committing {@code batchCommit} jobs
     * per transaction on the running JVM; fails for virtual threads before Java 21.
     */
    public JobThreads resolve(int batchCommit) {
        return resolve(Runtime.version().feature(), batchCommit);
    }

    JobThreads resolve(int javaRelease, int batchCommit) {
        return switch (this) {
            case AUTO -> javaRelease >= UNPINNED_SINCE && batchCommit == 1 ? VIRTUAL : PLATFORM;
            case PLATFORM -> PLATFORM;
            case VIRTUAL -> {
                if (javaRelease < VIRTUAL_SINCE) {
                    throw new InvalidValueException("virtual job threads need Java " + VIRTUAL_SINCE
                            + " or later; this runtime is Java " + javaRelease + " (use auto or platform)");
                }
                yield VIRTUAL;
            }
        };
    }
}
