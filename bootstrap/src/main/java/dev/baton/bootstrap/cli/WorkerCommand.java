package dev.baton.bootstrap.cli;

import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.wiring.DemoHandlersModule;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton worker}: consumes queues until SIGTERM or Ctrl-C, then stops gracefully and exits 0. */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Runs jobs from one or more queues until SIGTERM or Ctrl-C.",
                "Stopping is graceful: no new jobs are leased, running jobs get BATON_GRACE to finish, the rest are "
                + "left to other workers; then exit 0. Handlers: the demo handlers (orders, documents, noop) and "
                + "NamedJobHandler services in the jars of --classpath or the BATON_PLUGINS folder."})
final class WorkerCommand extends SessionCommand {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerCommand.class);

    @Option(names = "--queue", required = true, paramLabel = "QUEUE", description = "a queue to consume (repeatable)")
    List<String> queues;

    @Option(names = "--handler", paramLabel = "NAME",
            description = "the handler for jobs without a type (default: the handler named like the queue)")
    String handler;

    @Option(names = "--concurrency", paramLabel = "N", description = "jobs run at once (BATON_CONCURRENCY, default 8)")
    String concurrency;

    @Option(names = "--consumer", paramLabel = "NAME",
            description = "the worker's consumer name; keep it stable across restarts (default <host>-<pid>)")
    String consumer;

    @Option(names = "--classpath", paramLabel = "JARS", split = ":",
            description = "jars (':'-separated) whose NamedJobHandler services are loaded")
    List<Path> classpath = new ArrayList<>();

    @Option(names = "--demo-crash-on-poison",
            description = "the demo orders handler halts the process on a poison order (to watch poison detection)")
    boolean crashOnPoison;

    WorkerCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        BatonConfig config = config();
        List<QueueName> names = queues(queues);
        ConsumerName consumerName = consumer == null ? Baton.defaultConsumer() : ConsumerName.of(consumer);
        Baton baton = batonBuilder().handlerClassLoader(pluginLoader(config.plugins(), classpath))
                .module(new DemoHandlersModule(crashOnPoison)).build();
        try {
            checkHandlers(baton.handlers(), names);
            baton.startAdmin().ifPresent(address -> terminal.err().println("admin http on " + address.getHostString()
                    + ":" + address.getPort()));
            RunningWorker worker = baton.start(new RunWorkerUseCase.Command(names, consumerName,
                    config.concurrency(), Optional.ofNullable(handler)));
            LOG.info("worker started consumer={} queues={} concurrency={} mode={} config={}", consumerName, names,
                    config.concurrency(), config.mode().label(), config.describe());
            terminal.err().println("worker " + consumerName + " consuming " + names + "; Ctrl-C or SIGTERM stops it");
            return awaitStop(baton, worker, config);
        } catch (RuntimeException e) {
            baton.close();
            throw e;
        }
    }

    private int awaitStop(Baton baton, RunningWorker worker, BatonConfig config) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("worker stopping grace={}", config.grace());
            int abandoned = worker.stop(config.grace());
            LOG.info("worker stopped abandoned={} counters={}", abandoned, worker.counters());
            baton.close();
            stopped.countDown();
            // A signal ends the JVM with 128+n; a graceful stop is a success, so exit 0 once everything is closed.
            Runtime.getRuntime().halt(ExitCodes.OK);
        }, "baton-shutdown"));
        try {
            while (!stopped.await(1, TimeUnit.SECONDS)) {
                if (!worker.isRunning()) {
                    LOG.warn("worker stopped by itself counters={}", worker.counters());
                    baton.close();
                    terminal.err().println("baton: the worker stopped unexpectedly; see the log above");
                    return ExitCodes.FAILURE;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ExitCodes.OK;
    }

    private void checkHandlers(JobHandlers handlers, List<QueueName> names) {
        String known = String.join(", ", new TreeSet<>(handlers.names()));
        if (handler != null) {
            if (handlers.find(handler).isEmpty()) {
                throw new UsageException("unknown handler '" + handler + "'; known handlers: " + known);
            }
            return;
        }
        for (QueueName queue : names) {
            if (handlers.find(queue.value()).isEmpty()) {
                throw new UsageException("no handler is named like queue '" + queue + "': pass --handler NAME"
                        + " (known handlers: " + known + ")");
            }
        }
    }

    /** A class loader over the plugin folder's jars and {@code --classpath}, parented by Baton's own. */
    static ClassLoader pluginLoader(Optional<Path> plugins, List<Path> classpath) {
        List<Path> jars = new ArrayList<>(classpath);
        plugins.ifPresent(folder -> {
            if (!Files.isDirectory(folder)) {
                throw new UsageException("BATON_PLUGINS folder " + folder + " does not exist");
            }
            try (Stream<Path> files = Files.list(folder)) {
                files.filter(file -> file.toString().endsWith(".jar")).sorted().forEach(jars::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        if (jars.isEmpty()) {
            return WorkerCommand.class.getClassLoader();
        }
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            if (!Files.exists(jar)) {
                throw new UsageException("handler jar " + jar + " does not exist");
            }
            try {
                urls.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new UsageException("bad handler jar path " + jar);
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), WorkerCommand.class.getClassLoader());
    }
}
