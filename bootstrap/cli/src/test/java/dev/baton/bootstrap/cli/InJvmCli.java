package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs {@code baton} commands in this JVM through {@link Main#run}, with {@code env} as the whole environment. */
record InJvmCli(Map<String, String> env) {
    private static final ObjectMapper JSON = new ObjectMapper();

    InJvmCli {
        env = Map.copyOf(env);
    }

    Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, env, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                String.join(" ", args));
    }

    /** {@code baton worker ...} on a thread of its own; {@link Worker#stop} interrupts it, as SIGTERM would stop it. */
    Worker startWorker(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "worker";
        System.arraycopy(args, 0, command, 1, args.length);
        FutureTask<Result> task = new FutureTask<>(() -> run(command));
        Thread thread = new Thread(task, "baton-worker-cli");
        thread.start();
        return new Worker(thread, task);
    }

    /** The numbers of {@code baton stats --queue Q --json}. */
    JsonNode stats(String queue) throws IOException {
        Result result = run("stats", "--queue", queue, "--json");
        assertThat(result.exit()).as(result.toString()).isZero();
        return JSON.readTree(result.out()).get("queues").get(0);
    }

    record Worker(Thread thread, FutureTask<Result> task) {
        Result stop() throws InterruptedException, ExecutionException, TimeoutException {
            thread.interrupt();
            return task.get(60, TimeUnit.SECONDS);
        }
    }

    record Result(int exit, String out, String err, String args) {
        @Override
        public String toString() {
            return "baton " + args + ": exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }
}
