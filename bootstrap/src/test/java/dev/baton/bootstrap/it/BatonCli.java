package dev.baton.bootstrap.it;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the packaged {@code baton.jar} as a separate process, as a user would. */
final class BatonCli {
    private final Map<String, String> env;
    private final Path workDir;

    BatonCli(Map<String, String> env, Path workDir) {
        this.env = Map.copyOf(env);
        this.workDir = workDir;
    }

    static Path jar() {
        Path jar = Path.of(System.getProperty("baton.jar", "target/baton.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError("no " + jar + ": run the ITs with `./mvnw -pl bootstrap -am verify`");
        }
        return jar;
    }

    /** Runs to completion. */
    Result run(String... args) {
        return runWithInput(null, args);
    }

    /** Runs to completion with {@code stdin} as standard input. */
    Result runWithInput(String stdin, String... args) {
        Running running = start(stdin, args);
        return running.await(Duration.ofMinutes(3));
    }

    Running start(String... args) {
        return start(null, args);
    }

    private Running start(String stdin, String... args) {
        List<String> command = new ArrayList<>(List.of(javaBin(), "-jar", jar().toAbsolutePath().toString()));
        command.addAll(List.of(args));
        try {
            Path out = Files.createTempFile(workDir, "out", ".txt");
            Path err = Files.createTempFile(workDir, "err", ".txt");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            Map<String, String> processEnv = builder.environment();
            processEnv.keySet().removeIf(name -> name.startsWith("BATON_"));
            processEnv.putAll(env);
            if (stdin == null) {
                builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            }
            Process process = builder.start();
            if (stdin != null) {
                try (OutputStream in = process.getOutputStream()) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            return new Running(process, out, err, String.join(" ", args));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    BatonCli with(String name, String value) {
        Map<String, String> more = new HashMap<>(env);
        more.put(name, value);
        return new BatonCli(more, workDir);
    }

    /** A started process. */
    record Running(Process process, Path out, Path err, String args) {
        String stdout() {
            return read(out);
        }

        String stderr() {
            return read(err);
        }

        Result await(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("baton " + args + " did not finish within " + timeout + "\nstdout:\n"
                            + stdout() + "\nstderr:\n" + stderr());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            return new Result(process.exitValue(), stdout(), stderr());
        }

        private static String read(Path file) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }
}
