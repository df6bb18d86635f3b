package dev.baton.bootstrap.faults;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code baton} CLI from the shaded jar built by {@code package}, in child JVMs, with a configuration
 * given only through {@code BATON_*} environment variables (the parent's own {@code BATON_*} variables are not
 * inherited, so a developer's shell cannot change what a test runs).
 */
final class BatonCli {
    /** Small heaps and a quick JIT: up to a dozen of these JVMs share two cores with the build. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xss512k");

    private final Path jar;
    private final Map<String, String> env;

    private BatonCli(Path jar, Map<String, String> env) {
        this.jar = jar;
        this.env = Map.copyOf(env);
    }

    /** The jar named by the {@code baton.jar} system property (set by failsafe), else {@code target/baton.jar}. */
    static BatonCli fromBuild(Map<String, String> env) {
        Path jar = Path.of(System.getProperty("baton.jar", "target/baton.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: the fault suite runs the packaged CLI; run it"
                    + " with `./mvnw -pl bootstrap -am verify` (failsafe runs after `package`)");
        }
        return new BatonCli(jar, env);
    }

    /** The same jar with some variables changed (e.g. another Redis after a failover). */
    BatonCli with(Map<String, String> changes) {
        Map<String, String> changed = new LinkedHashMap<>(env);
        changed.putAll(changes);
        return new BatonCli(jar, changed);
    }

    /** Starts {@code baton <args>} with its output appended to {@code log}. */
    Process start(List<String> args, Path log) {
        try {
            Files.createDirectories(log.getParent());
            return Processes.reaped(builder(args).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a one-shot command ({@code enqueue}, {@code stats}, {@code trim} ...) to completion. */
    Result run(String... args) {
        try {
            File err = File.createTempFile("baton-cli", ".err");
            try {
                Process process = builder(List.of(args)).redirectError(err).start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(5, TimeUnit.MINUTES)) {
                    Processes.killHard(process);
                    throw new IllegalStateException("baton " + String.join(" ", args) + " did not finish");
                }
                return new Result(List.of(args), process.exitValue(), out, Files.readString(err.toPath()));
            } finally {
                Files.deleteIfExists(err.toPath());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs a command that must succeed. */
    Result runOk(String... args) {
        Result result = run(args);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(result.describe());
        }
        return result;
    }

    private ProcessBuilder builder(List<String> args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(JVM_OPTIONS);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("BATON_"));
        builder.environment().putAll(env);
        return builder;
    }

    record Result(List<String> args, int exitCode, String stdout, String stderr) {
        String describe() {
            return "baton " + String.join(" ", args) + " exited " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n"
                    + stderr;
        }
    }
}
