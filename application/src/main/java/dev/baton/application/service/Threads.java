package dev.baton.application.service;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Waiting, as a service closes, for a thread of its own to end. */
final class Threads {
    private static final Logger LOG = LoggerFactory.getLogger(Threads.class);

    private Threads() {
    }

    /**
     * Waits up to {@code wait} for {@code thread} to end (at once for one never started), and says what is left when
     * it does not. An interrupted caller stops waiting and keeps its interrupt.
     *
     * @param left what a thread still running at the end means, for the log
     */
    static void join(Thread thread, Duration wait, String left) {
        try {
            thread.join(Math.max(1, wait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (thread.isAlive()) {
            LOG.warn("{} still running {} after it was closed: {}", thread.getName(), wait, left);
        }
    }
}
