package dev.baton.bootstrap.local;

/**
 * Stops a throwaway server when the JVM exits without closing it (Ctrl-C during {@code baton dev}): child processes
 * outlive the JVM otherwise, and would keep their ports and temporary directories.
 */
final class ExitGuard {
    private final Thread hook;

    private ExitGuard(Thread hook) {
        this.hook = hook;
    }

    static ExitGuard closeOnExit(String name, AutoCloseable server) {
        Thread hook = new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                // the JVM is going down: nothing left to tell
            }
        }, "baton-stop-" + name);
        Runtime.getRuntime().addShutdownHook(hook);
        return new ExitGuard(hook);
    }

    /** The server was closed normally: no hook needed any more. */
    void release() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running or ran
        }
    }
}
