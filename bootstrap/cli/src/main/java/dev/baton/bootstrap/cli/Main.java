package dev.baton.bootstrap.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The {@code baton} command's entry point: {@code java -jar baton.jar <command> ...}. */
public final class Main {
    private static final String LOG_LEVEL = "BATON_LOG_LEVEL";
    private static final String GUICE_BYTECODE_GEN = "guice_bytecode_gen_option";

    private Main() {
    }

    public static void main(String[] args) {
        // dev's live progress and summary are its output, on throwaway servers: only errors may interrupt them
        if (args.length > 0 && "dev".equals(args[0]) && System.getenv(LOG_LEVEL) == null) {
            System.setProperty(LOG_LEVEL, "ERROR");
        }
        // Guice's class generation (for method interception, which the CLI has none of) calls sun.misc.Unsafe, and Java
        // 24+ warns about that on stderr, the CLI's error channel: reflection does as well for the commands' bindings
        if (System.getProperty(GUICE_BYTECODE_GEN) == null) {
            System.setProperty(GUICE_BYTECODE_GEN, "DISABLED");
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, System.getenv(), System.in, out, err));
    }

    /** Runs one command and returns its exit status: 0 ok, 1 runtime failure, 2 usage or configuration error. */
    public static int run(String[] args, Map<String, String> env, InputStream in, PrintStream out, PrintStream err) {
        return BatonCommand.commandLine(new Terminal(env, in, out, err)).execute(args);
    }
}
