package dev.baton.bootstrap.cli;

import dev.baton.bootstrap.EnqueueRoute;
import dev.baton.bootstrap.bench.BenchResult;
import dev.baton.bootstrap.bench.Benchmark;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.json.Json;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton bench}: the picocli face of {@link Benchmark}. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Measures Baton on the configured Redis and PostgreSQL: enqueues N jobs on a fresh queue (and,",
                "exactly-once, a fresh schema), runs them with one worker, checks that every effect happened once,",
                "reports rates, latencies and memory, and deletes what it created. Progress goes to stderr."})
final class BenchCommand extends SessionCommand {
    private static final int DEFAULT_CONCURRENCY = 64;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "100000", description = "jobs to run (100000)")
    int jobs;

    @Option(names = "--concurrency", paramLabel = "C",
            description = "jobs the worker runs at once (BATON_CONCURRENCY; bench default 64); the pool "
                    + "size defaults to one connection per batch running at once")
    String concurrency;

    @Option(names = "--mode", paramLabel = "MODE",
            description = "at-least-once or exactly-once (BATON_MODE; bench default at-least-once)")
    String mode;

    @Option(names = "--handler", paramLabel = "NAME", defaultValue = "noop",
            description = "noop, or orders (one demo row per job, exactly-once only) (noop)")
    String handler;

    // the batch-commit setting's own flag, given a default: BATON_BATCH_COMMIT does not reach the bench
    @Option(names = "--batch-commit", paramLabel = "B", defaultValue = "1",
            description = "jobs committed per ledger transaction, a savepoint each (1)")
    int batchCommit;

    @Option(names = "--rate", paramLabel = "R",
            description = "offer R jobs/s while the worker runs (latency), instead of enqueuing all first")
    Double rate;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "10000",
            description = "jobs of the first warm-up round, run first on a queue of their own and not measured;"
                    + " rounds of ~3 s go on until the JIT is quiet (10000)")
    int warmup;

    @Option(names = "--max-warmup", paramLabel = "S", defaultValue = "90",
            description = "seconds after which no further warm-up round starts, quiet JIT or not (90)")
    int maxWarmup;

    @Option(names = "--enqueue", paramLabel = "ROUTE", defaultValue = "direct",
            description = "direct (straight to Redis), or outbox: first the outbox's transactional enqueue rates "
                    + "(one job per transaction from --producers threads, then 1000 per transaction, a relay "
                    + "publishing them meanwhile), then the run "
                    + "with every job through the outbox and a relay (exactly-once, its default here) (direct)")
    String enqueue;

    @Option(names = "--producers", paramLabel = "P", defaultValue = "4",
            description = "threads enqueueing one job per transaction at once, with --enqueue outbox (4)")
    int producers;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    @Inject
    BenchCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    Map<String, String> defaultOverrides() {
        int running = DEFAULT_CONCURRENCY;
        try {
            running = concurrency == null ? DEFAULT_CONCURRENCY : Integer.parseInt(concurrency.trim());
        } catch (NumberFormatException e) {
            // the configuration reports the bad value with its source
        }
        int pool = BatonConfig.autoPoolSize(Math.max(1, running), Math.max(1, batchCommit));
        return Map.of("concurrency", Integer.toString(DEFAULT_CONCURRENCY),
                "mode", route() == EnqueueRoute.OUTBOX ? "exactly-once" : "at-least-once",
                "admin-address", "off", "pool-size", Integer.toString(Math.max(10, pool)));
    }

    @Override
    public Integer call() throws InterruptedException {
        Benchmark.Options options = new Benchmark.Options(jobs, handler,
                rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate), warmup, Duration.ofSeconds(maxWarmup),
                route(), producers);
        Progress[] bar = new Progress[1];
        String[] current = new String[1];
        BenchResult result = Benchmark.run(config(), options, (phase, done, total) -> {
            if (!phase.equals(current[0])) {
                if (bar[0] != null) {
                    bar[0].finish();
                }
                current[0] = phase;
                bar[0] = new Progress(terminal, String.format("%-13s", phase), total);
            }
            bar[0].update(done);
        });
        if (bar[0] != null) {
            bar[0].finish();
        }
        if (json) {
            terminal.out().println(Json.write(result.json()));
        } else {
            print(result);
        }
        return result.exactlyOnce() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private EnqueueRoute route() {
        return switch (enqueue.trim().toLowerCase(Locale.ROOT)) {
            case "direct" -> EnqueueRoute.DIRECT;
            case "outbox" -> EnqueueRoute.OUTBOX;
            default -> throw new UsageException("--enqueue must be direct or outbox, got " + enqueue);
        };
    }

    private void print(BenchResult result) {
        Table table = new Table("MEASURE", "VALUE");
        result.json().forEach((key, value) -> {
            if (value instanceof Map<?, ?> nested) {
                nested.forEach((inner, innerValue) -> table.row(key + "." + inner, innerValue));
            } else {
                table.row(key, value);
            }
        });
        table.print(terminal.out());
    }
}
