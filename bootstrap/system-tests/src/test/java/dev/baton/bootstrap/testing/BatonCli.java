package dev.baton.bootstrap.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code baton} CLI from the shaded jar built by {@code package} (failsafe runs after it) in child JVMs,
 * as a user would, configured only through the {@code BATON_*} environment variables given here: the test JVM's own
 * {@code BATON_*} variables are not inherited, so a developer's shell cannot change what a test runs. Standard input
 * is empty unless given; standard output and error go to files in a working directory.
 */
public final class BatonCli {
    /** Small heaps and a quick JIT: up to a dozen of these JVMs share two cores with the build. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xss512k");
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(5);

    private final Path jar;
    private final Map<String, String> env;
    private final Path workDir;

    /**
     * @param env     the {@code BATON_*} variables of every command
     * @param workDir where the commands' output files go (created when missing)
     * @throws IllegalStateException when the jar was not built, saying how to build it
     */
    public BatonCli(Map<String, String> env, Path workDir) {
        this(builtJar(), env, workDir);
    }

    private BatonCli(Path jar, Map<String, String> env, Path workDir) {
        this.jar = jar;
        this.env = Map.copyOf(env);
        this.workDir = workDir;
    }

    /** The jar named by the {@code baton.jar} system property (set by failsafe), else {@code target/baton.jar}. */
    private static Path builtJar() {
        Path jar = Path.of(System.getProperty("baton.jar", "target/baton.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: these tests run the packaged CLI; run them with"
                    + " `./mvnw -pl bootstrap -am verify` (failsafe runs after `package`)");
        }
        return jar;
    }

    /** The same jar with one variable changed. */
    public BatonCli with(String name, String value) {
        return with(Map.of(name, value));
    }

    /** The same jar with some variables changed (e.g. another Redis after a failover). */
    public BatonCli with(Map<String, String> changes) {
        Map<String, String> changed = new LinkedHashMap<>(env);
        changed.putAll(changes);
        return new BatonCli(jar, changed, workDir);
    }

    /** Runs a one-shot command ({@code enqueue}, {@code stats}, {@code trim} ...) to completion. */
    public Result run(String... args) {
        return runWithInput(null, args);
    }

    /** Runs to completion with {@code stdin} as standard input. */
    public Result runWithInput(String stdin, String... args) {
        Running running = start(stdin, args);
        try {
            return running.await(COMMAND_TIMEOUT);
        } finally {
            running.deleteOutput();
        }
    }

    /** Runs a command that must succeed. @throws IllegalStateException with its output when it exits non-zero */
    public Result runOk(String... args) {
        Result result = run(args);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(result.toString());
        }
        return result;
    }

    /** Starts {@code baton <args>}; its output stays readable while it runs. */
    public Running start(String... args) {
        return start(null, args);
    }

    /**
     * Starts {@code baton <args>} with standard output and error appended to {@code log}, which may hold earlier runs
     * (a worker restarted under one log).
     */
    public Process startAppendingTo(Path log, List<String> args) {
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            return builder(args).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Running start(String stdin, String... args) {
        try {
            Files.createDirectories(workDir);
            Path out = Files.createTempFile(workDir, "baton-out", ".txt");
            Path err = Files.createTempFile(workDir, "baton-err", ".txt");
            ProcessBuilder builder = builder(List.of(args)).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (stdin != null) {
                builder.redirectInput(ProcessBuilder.Redirect.PIPE);
            }
            Process process = builder.start();
            if (stdin != null) {
                try (OutputStream in = process.getOutputStream()) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            return new Running(process, out, err, List.of(args));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ProcessBuilder builder(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().keySet().removeIf(name -> name.startsWith("BATON_"));
        builder.environment().putAll(env);
        return builder;
    }

    /** A started command, its standard output and error in the files {@code out} and {@code err}. */
    public record Running(Process process, Path out, Path err, List<String> args) {
        public String stdout() {
            return read(out);
        }

        public String stderr() {
            return read(err);
        }

        /** Waits for the exit. @throws IllegalStateException (after killing it) when it runs longer than timeout */
        public Result await(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    throw new IllegalStateException("baton " + String.join(" ", args) + " did not finish within "
                            + timeout + "\nstdout:\n" + stdout() + "\nstderr:\n" + stderr());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return new Result(args, process.exitValue(), stdout(), stderr());
        }

        private void deleteOutput() {
            try {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static String read(Path file) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A finished command; {@link #toString} tells everything, for assertion messages. */
    public record Result(List<String> args, int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "baton " + String.join(" ", args) + " exited " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n"
                    + stderr;
        }
    }
}
