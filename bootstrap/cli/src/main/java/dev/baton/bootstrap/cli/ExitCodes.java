package dev.baton.bootstrap.cli;

/** The exit statuses of every {@code baton} command. */
final class ExitCodes {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;
    /**
     * The job had reached a terminal outcome already (completed, dead, purged): {@code baton cancel} changed nothing.
     */
    static final int ALREADY_TERMINAL = 3;

    private ExitCodes() {
    }
}
