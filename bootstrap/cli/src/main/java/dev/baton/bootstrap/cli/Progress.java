package dev.baton.bootstrap.cli;

/** A progress bar on stderr: redrawn in place on a terminal, a single final line otherwise. */
final class Progress {
    private static final int WIDTH = 30;
    private final Terminal terminal;
    private final String label;
    private final long total;
    private long done;

    Progress(Terminal terminal, String label, long total) {
        this.terminal = terminal;
        this.label = label;
        this.total = total;
    }

    void update(long newDone) {
        this.done = newDone;
        if (terminal.interactive()) {
            terminal.err().print("\r" + line());
            terminal.err().flush();
        }
    }

    void finish() {
        terminal.err().print(terminal.interactive() ? "\r" + line() + "\n" : line() + "\n");
        terminal.err().flush();
    }

    private String line() {
        int filled = total == 0 ? WIDTH : (int) (WIDTH * done / total);
        return label + " [" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + total;
    }
}
