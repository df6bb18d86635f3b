package dev.baton.application.service;

import dev.baton.domain.InvalidValueException;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What runs a worker's jobs. Baton is built for Java 17, so virtual threads are reached reflectively and only where
 * the runtime has them. Measured side by side on Java 25 (docs/BENCHMARKS.md): with one transaction per job, virtual
 * threads moved 1.15x the jobs at 0.8x the CPU per job, because a job waiting for PostgreSQL parks on the JDK's
 * poller instead of putting an OS thread to sleep; with batched commits, where a few threads each run hundreds of
 * round trips one after the other, every round trip then wakes the poller and a carrier, and platform threads moved
 * 1.6x the jobs. {@link #AUTO} follows those measurements.
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
    static final int VIRTUAL_SINCE = 21;
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

    /**
     * The executor for a worker's jobs: at most {@code concurrency} run at once either way, because the worker
     * submits only jobs that hold one of its slots. Threads are named {@code prefix-N}.
     */
    ExecutorService executor(int concurrency, int batchCommit, String prefix) {
        ThreadFactory threads = threads(batchCommit, prefix);
        if (resolve(batchCommit) == PLATFORM) {
            return Executors.newFixedThreadPool(concurrency, threads);
        }
        try {
            return (ExecutorService) Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class)
                    .invoke(null, threads);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this runtime has no virtual threads", e);
        }
    }

    /**
     * Daemon threads named {@code prefix-N} of the kind this choice resolves to: the worker's fetcher and
     * acknowledgement sender trade hand-overs with its jobs, which are cheaper between threads of one kind.
     */
    ThreadFactory threads(int batchCommit, String prefix) {
        return resolve(batchCommit) == PLATFORM ? platformThreads(prefix) : virtualThreads(prefix);
    }

    static ThreadFactory platformThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** {@code Thread.ofVirtual().name(prefix + "-", 1).factory()}, Java 21+; virtual threads are daemons. */
    private static ThreadFactory virtualThreads(String prefix) {
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Object virtual = Thread.class.getMethod("ofVirtual").invoke(null);
            Object named = builder.getMethod("name", String.class, long.class).invoke(virtual, prefix + "-", 1L);
            return (ThreadFactory) builder.getMethod("factory").invoke(named);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this runtime has no virtual threads", e);
        }
    }
}
