package dev.baton.bootstrap.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/** What a command may touch of its surroundings: the environment and the three standard streams. */
record Terminal(Map<String, String> env, InputStream in, PrintStream out, PrintStream err) {
    Terminal {
        env = Map.copyOf(env);
    }

    /** True when stderr is probably a terminal (live progress lines are redrawn in place). */
    boolean interactive() {
        return System.console() != null;
    }
}
