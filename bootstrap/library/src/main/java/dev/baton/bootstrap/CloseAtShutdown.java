package dev.baton.bootstrap;

import java.util.Optional;

/**
 * The JVM shutdown hook that closes a {@link Baton}: worker threads are daemons, so without it a {@code main} that
 * returns ends them before they acknowledge. Registered once, removed on close (unless the hook itself is closing).
 */
final class CloseAtShutdown {
    private final Runnable close;
    private Thread hook; // guarded by this

    CloseAtShutdown(Runnable close) {
        this.close = close;
    }

    synchronized void register() {
        if (hook == null) {
            hook = new Thread(close, "baton-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    synchronized void remove() {
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting: the hook closes as well, and closing twice is harmless
            }
        }
        hook = null;
    }

    synchronized Optional<Thread> hook() {
        return Optional.ofNullable(hook);
    }
}
