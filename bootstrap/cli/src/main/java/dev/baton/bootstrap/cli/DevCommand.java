package dev.baton.bootstrap.cli;

import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.in.WorkerCounters;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Durations;
import dev.baton.bootstrap.demo.DemoHandlers;
import dev.baton.bootstrap.demo.DemoOrders;
import dev.baton.bootstrap.demo.OrdersHandler;
import dev.baton.bootstrap.local.LocalPostgres;
import dev.baton.bootstrap.local.LocalRedis;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code baton dev}: the first run. Throwaway Redis and PostgreSQL on free ports (never the user's), a worker with the
 * demo handlers, N demo orders with a few transient failures, poison orders and a malformed one, live progress, and a
 * summary.
 */
@Command(name = "dev", mixinStandardHelpOptions = true,
        description = {"The first run: demo orders end to end on throwaway Redis and PostgreSQL.",
                "Starts Redis and PostgreSQL on free ports (removed afterwards; your own servers are never touched), "
                + "enqueues demo orders (some fail transiently, some are poison, one is malformed), runs them with "
                + "live progress and prints a summary."})
final class DevCommand extends SessionCommand {
    private static final QueueName QUEUE = QueueName.of(OrdersHandler.NAME);
    private static final long TICK_MILLIS = 250;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "1000", description = "demo orders to run (1000)")
    int jobs;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5m",
            description = "give up when the orders are not all settled by then (5m)")
    String timeout;

    @Inject
    DevCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    Map<String, String> defaultOverrides() {
        // quick retries and a private admin port, so that the demo settles in seconds and never clashes
        return Map.of("backoff-initial", "100ms", "backoff-max", "1s", "max-attempts", "3",
                "concurrency", "16", "admin-address", "127.0.0.1:0", "grace", "5s");
    }

    @Override
    public Integer call() throws InterruptedException {
        if (jobs < 1 || jobs > 1_000_000) {
            throw new UsageException("--jobs must be 1..1000000, got " + jobs);
        }
        Duration limit;
        try {
            limit = Durations.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid --timeout '" + timeout + "': " + e.getMessage());
        }
        terminal.err().println("starting throwaway Redis and PostgreSQL on free ports (your own servers are never "
                + "touched)...");
        try (LocalRedis redis = LocalRedis.start(); LocalPostgres postgres = LocalPostgres.start()) {
            terminal.err().println("  redis      " + redis.uri() + "  (" + redis.origin() + ")");
            terminal.err().println("  postgres   " + postgres.jdbcUrl() + "  (" + postgres.origin() + ")");
            BatonConfig config = config().with(REDIS_URI, redis.uri())
                    .with(JDBC_URL, postgres.jdbcUrl());
            try (Baton baton = DemoHandlers.register(Baton.builder().config(config), false).build()) {
                return run(baton, config, limit);
            }
        }
    }

    private int run(Baton baton, BatonConfig config, Duration limit) throws InterruptedException {
        baton.startAdmin().ifPresent(address -> terminal.err().println("  admin      http://"
                + address.getHostString() + ":" + address.getPort() + "/metrics"));
        RunningWorker worker = baton.start(new RunWorkerUseCase.Command(List.of(QUEUE),
                ConsumerName.of("dev-" + ProcessHandle.current().pid()), config.get(CONCURRENCY), Optional.empty()));
        List<DemoOrders.Order> orders = DemoOrders.mix(jobs);
        terminal.err().println("enqueuing " + jobs + " demo orders on queue '" + QUEUE + "' ("
                + DemoOrders.expected(jobs) + ")");
        long started = System.nanoTime();
        for (int from = 0; from < orders.size(); from += EnqueueCommand.BATCH) {
            baton.enqueueAll(orders.subList(from, Math.min(orders.size(), from + EnqueueCommand.BATCH)).stream()
                    .map(order -> EnqueueJobUseCase.Command.now(QUEUE, JobId.of(order.jobId()), order.payload()))
                    .toList());
        }
        InspectQueueUseCase inspect = baton.use(InspectQueueUseCase.class);
        long deadline = started + limit.toNanos();
        long lastLine = 0;
        WorkerCounters counters = worker.counters();
        while (counters.completed() + counters.deadLettered() < jobs) {
            if (System.nanoTime() > deadline) {
                terminal.err().println();
                terminal.err().println("baton: the demo did not settle within " + timeout + ": " + counters);
                return ExitCodes.FAILURE;
            }
            Thread.sleep(TICK_MILLIS);
            counters = worker.counters();
            long now = System.nanoTime();
            if (terminal.interactive() || now - lastLine > 2_000_000_000L) {
                long delayed = inspect.inspect(new InspectQueueUseCase.Command(QUEUE)).stats().delayed();
                String line = String.format("completed %d/%d  retrying %d  dead %d  %.0f jobs/s",
                        counters.completed(), jobs, delayed, counters.deadLettered(), rate(counters, started, now));
                terminal.err().print(terminal.interactive() ? "\r" + line + "   " : line + "\n");
                terminal.err().flush();
                lastLine = now;
            }
        }
        long finished = System.nanoTime();
        if (terminal.interactive()) {
            terminal.err().println();
        }
        summary(baton, counters, started, finished);
        return ExitCodes.OK;
    }

    private void summary(Baton baton, WorkerCounters counters, long started, long finished) {
        InspectQueueUseCase.QueueReport report = baton.use(InspectQueueUseCase.class)
                .inspect(new InspectQueueUseCase.Command(QUEUE));
        Map<DeadLetterReason, Integer> reasons = new TreeMap<>();
        Map<DeadLetterReason, String> examples = new TreeMap<>();
        for (StoredDeadLetter stored : DlqCommand.all(baton, QUEUE, new DeadLetterSelection.All())) {
            reasons.merge(stored.letter().reason(), 1, Integer::sum);
            examples.putIfAbsent(stored.letter().reason(), stored.letter().jobId().orElse("?") + ": "
                    + stored.letter().lastError().message());
        }
        double seconds = (finished - started) / 1e9;
        terminal.out().println();
        terminal.out().printf("Baton dev run: %d demo orders in %.1fs%n%n", jobs, seconds);
        Table table = new Table("OUTCOME", "JOBS", "DETAIL");
        table.row("completed", counters.completed(), "effect committed once, with its ledger record ("
                + report.completed().orElse(0) + " in the ledger)");
        table.row("retried", counters.retried(), "failed attempts scheduled again with backoff");
        table.row("dead-lettered", counters.deadLettered(), "see `baton dlq list --queue " + QUEUE + "`");
        reasons.forEach((reason, count) -> table.row("  " + reason.name().toLowerCase(Locale.ROOT),
                count, abbreviate(examples.get(reason))));
        table.row("duplicates skipped", counters.duplicates(), "completed jobs delivered again, not committed twice");
        table.row("throughput", String.format("%.0f jobs/s", jobs / seconds), "");
        table.print(terminal.out());
        terminal.out().println();
        terminal.out().println("Next: run a worker against your own Redis and PostgreSQL:");
        terminal.out().println("  BATON_REDIS_URI=redis://127.0.0.1:6379 "
                + "BATON_JDBC_URL='jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres' \\");
        terminal.out().println("    ./baton worker --queue orders");
    }

    private static double rate(WorkerCounters counters, long started, long now) {
        double seconds = Math.max(1e-3, (now - started) / 1e9);
        return (counters.completed() + counters.deadLettered()) / seconds;
    }

    private static String abbreviate(String text) {
        return text.length() <= 70 ? text : text.substring(0, 69) + "…";
    }
}
