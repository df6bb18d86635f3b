package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.BatonBuilder;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Setting;
import dev.baton.bootstrap.demo.DemoHandlers;
import dev.baton.bootstrap.wiring.HandlerRegistry;
import dev.baton.domain.QueueName;
import jakarta.inject.Inject;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code baton worker}: consumes queues until SIGTERM or Ctrl-C, then stops gracefully and exits 0. */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Runs jobs from one or more queues until SIGTERM or Ctrl-C.",
                "Stopping is graceful: no new jobs are leased, running jobs get BATON_GRACE to finish, the rest are "
                + "left to other workers; then exit 0. Handlers: the demo handlers (orders, documents, noop) and "
                + "NamedJobHandler services in the jars of --classpath or the BATON_PLUGINS folder.",
                "With --schedules FILE (or BATON_SCHEDULES) it also fires the file's schedules; any number of workers "
                + "may: each fire time's job is enqueued once. A bad line of the file exits 2, naming file:line."})
final class WorkerCommand extends SessionCommand {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerCommand.class);

    @Option(names = "--queue", required = true, paramLabel = "QUEUE", description = "a queue to consume (repeatable)")
    List<String> queues;

    @Option(names = "--handler", paramLabel = "NAME",
            description = "the handler for jobs without a type (default: the handler named like the queue)")
    String handler;

    @Option(names = "--concurrency", paramLabel = "N", description = "jobs run at once (BATON_CONCURRENCY, default 8)")
    String concurrency;

    /** Read as the setting BATON_CONSUMER ({@link SettingFlags}): {@link Baton#consumer()}. */
    @Option(names = "--consumer", paramLabel = "NAME",
            description = "the worker's consumer name (BATON_CONSUMER; default the pod's name in Kubernetes, or the "
                    + "host name); a name a live worker holds is taken as NAME-2, NAME-3, ...")
    String consumer;

    @Option(names = "--classpath", paramLabel = "JARS", split = ":",
            description = "jars (':'-separated) whose NamedJobHandler services are loaded")
    List<Path> classpath = new ArrayList<>();

    @Option(names = "--demo-crash-on-poison",
            description = "the demo orders handler halts the process on a poison order (to watch poison detection)")
    boolean crashOnPoison;

    @Mixin
    PartitionsOption partitions;

    @Mixin
    SchedulesOption schedules;

    @Inject
    WorkerCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        BatonConfig config = config();
        List<QueueName> names = queues(queues);
        BatonBuilder builder = DemoHandlers.register(batonBuilder(), crashOnPoison)
                .handlerClassLoader(pluginLoader(Optional.of(config.get(Setting.PLUGINS))
                        .filter(folder -> !folder.isEmpty()).map(Path::of), classpath))
                .shutdownHook(false); // this command's own hook stops gracefully, then exits 0
        schedules.file(terminal).ifPresent(builder::schedulesFile);
        Baton baton = builder.build(); // a bad schedules line fails here, before anything starts: exit 2
        Thread hook = null;
        try {
            HandlerRegistry.requireHandlers(baton.handlers(), names, Optional.ofNullable(handler));
            partitions.declare(baton, names);
            // registered before anything starts, so that a SIGTERM during start-up is a graceful stop too
            AtomicReference<RunningWorker> started = new AtomicReference<>();
            AtomicBoolean stopRequested = new AtomicBoolean();
            hook = shutdownHook(baton, started, stopRequested, config);
            Runtime.getRuntime().addShutdownHook(hook);
            baton.startAdmin().ifPresent(address -> terminal.err().println("admin http on " + address.getHostString()
                    + ":" + address.getPort()));
            RunningWorker worker = baton.start(new RunWorkerUseCase.Command(names, baton.consumer(),
                    config.get(Setting.CONCURRENCY), Optional.ofNullable(handler)));
            started.set(worker);
            LOG.info("worker started consumer={} queues={} concurrency={} mode={} config={}", worker.consumer(), names,
                    config.get(Setting.CONCURRENCY), config.get(Setting.MODE).label(), config.describe());
            terminal.err().println("worker " + worker.consumer() + " consuming " + names
                    + (baton.schedules().isEmpty() ? "" : ", firing " + baton.schedules().size() + " schedule(s)")
                    + "; Ctrl-C or SIGTERM stops it");
            if (awaitStopOrFailure(worker, stopRequested)) {
                return closeWithoutHook(hook, baton, ExitCodes.OK); // interrupted: stopped without a signal
            }
            LOG.warn("worker stopped by itself counters={}", worker.counters());
            terminal.err().println("baton: the worker stopped unexpectedly; see the log above");
            return closeWithoutHook(hook, baton, ExitCodes.FAILURE);
        } catch (RuntimeException e) {
            closeWithoutHook(hook, baton, ExitCodes.FAILURE);
            throw e;
        }
    }

    /** Stops the worker (if it got to start) and Baton on SIGTERM or Ctrl-C, then exits 0: a graceful stop. */
    private static Thread shutdownHook(Baton baton, AtomicReference<RunningWorker> started,
                                       AtomicBoolean stopRequested, BatonConfig config) {
        return new Thread(() -> {
            // set first, so that the main thread does not take this stop for a failure
            stopRequested.set(true);
            try {
                RunningWorker worker = started.get();
                if (worker != null) {
                    LOG.info("worker stopping grace={}", config.get(Setting.GRACE));
                    int abandoned = worker.stop(config.get(Setting.GRACE));
                    LOG.info("worker stopped abandoned={} counters={}", abandoned, worker.counters());
                }
                baton.close();
            } finally {
                // A signal ends the JVM with 128+n; a graceful stop is a success, so exit 0 once everything is closed.
                Runtime.getRuntime().halt(ExitCodes.OK);
            }
        }, "baton-shutdown");
    }

    /**
     * Waits while the worker runs. A signal never returns from here (the hook halts the JVM); an interrupt (the
     * command run inside another JVM) returns true; a worker that stopped by itself returns false (a failure).
     */
    private static boolean awaitStopOrFailure(RunningWorker worker, AtomicBoolean stopRequested) {
        try {
            while (worker.isRunning() || stopRequested.get()) {
                if (stopRequested.get()) {
                    Thread.currentThread().join(); // the hook stops everything and halts the JVM
                }
                TimeUnit.SECONDS.sleep(1);
            }
        } catch (InterruptedException e) {
            // run in a JVM that goes on (Main.run from a thread): an interrupt stops gracefully, as a signal would
            Thread.currentThread().interrupt();
            return true;
        }
        return false;
    }

    /** Closes without the graceful-stop hook, which would turn a failure into exit 0 at JVM exit. */
    private static int closeWithoutHook(Thread hook, Baton baton, int exitCode) {
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                return exitCode; // a signal arrived meanwhile: the hook is already stopping everything
            }
        }
        baton.close();
        return exitCode;
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
