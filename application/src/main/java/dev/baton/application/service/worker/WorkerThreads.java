package dev.baton.application.service.worker;

import dev.baton.application.service.JobThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of one worker, named {@code baton-<consumer>-<role>-N}, all daemons: a forgotten worker never keeps the
 * JVM alive. Jobs run on the kind of thread the {@link JobThreads} choice resolves to; virtual threads are reached
 * reflectively, because Baton is built for Java 17.
 */
final class WorkerThreads {
    private final JobThreads kind;
    private final String prefix;

    /** Threads named {@code prefix-<role>-N}; jobs on what {@code choice} means at {@code batchCommit}. */
    WorkerThreads(JobThreads choice, int batchCommit, String prefix) {
        this.kind = choice.resolve(batchCommit);
        this.prefix = prefix;
    }

    /**
     * The executor for the jobs: at most {@code concurrency} run at once either way, because the worker submits only
     * jobs that hold one of its slots.
     */
    ExecutorService jobs(int concurrency) {
        ThreadFactory threads = ofJobKind("job");
        if (kind == JobThreads.PLATFORM) {
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
     * Threads of the jobs' kind: the worker's fetcher and acknowledgement sender trade hand-overs with its jobs, which
     * are cheaper between threads of one kind.
     */
    ThreadFactory ofJobKind(String role) {
        return kind == JobThreads.PLATFORM ? platform(role) : virtual(prefix + "-" + role);
    }

    /** Platform threads, for the timers and background loops whatever runs the jobs. */
    ThreadFactory platform(String role) {
        String name = prefix + "-" + role;
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** {@code Thread.ofVirtual().name(name + "-", 1).factory()}, Java 21+; virtual threads are daemons. */
    private static ThreadFactory virtual(String name) {
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Object virtual = Thread.class.getMethod("ofVirtual").invoke(null);
            Object named = builder.getMethod("name", String.class, long.class).invoke(virtual, name + "-", 1L);
            return (ThreadFactory) builder.getMethod("factory").invoke(named);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this runtime has no virtual threads", e);
        }
    }
}
