package dev.baton.bootstrap.bench;

import static dev.baton.bootstrap.config.Setting.BATCH_COMMIT;
import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.GRACE;
import static dev.baton.bootstrap.config.Setting.JOB_THREADS;
import static dev.baton.bootstrap.config.Setting.MODE;
import static dev.baton.bootstrap.config.Setting.SCHEMA;

import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.out.EffectRecords;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.EnqueueRoute;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.demo.DemoHandlers;
import dev.baton.bootstrap.demo.NoopHandler;
import dev.baton.bootstrap.demo.OrdersHandler;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.UUID;

/**
 * {@code baton bench}: runs N jobs through a fresh queue (and, exactly-once, a fresh PostgreSQL schema) on the
 * configured Redis and PostgreSQL, with Baton's own wiring, and measures enqueue and processing rates, latencies and
 * memory. Everything it creates is deleted afterwards. The configuration's mode, concurrency and batch commit are
 * those of the worker measured.
 */
public final class Benchmark {

    /**
     * @param jobs      how many jobs
     * @param handler   {@code noop} or {@code orders} (exactly-once only: it writes a demo row per job)
     * @param rate      jobs offered per second while the worker runs; empty: enqueue all first, then process
     * @param warmup    jobs of the first warm-up round, run first on a queue of their own, not measured: rounds
     *                  (later ones of ~3 s) go on until the JIT is quiet (it compiled for under 5% of the last round)
     * @param maxWarmup no warm-up round starts after this long
     * @param enqueue   how the jobs are enqueued; {@link EnqueueRoute#OUTBOX} also measures the outbox's transactional
     *                  enqueue rates first ({@link OutboxThroughput}), and needs exactly-once
     * @param producers threads enqueueing one job per transaction at once, for {@link EnqueueRoute#OUTBOX}
     */
    public record Options(int jobs, String handler, OptionalDouble rate, int warmup, Duration maxWarmup,
                          EnqueueRoute enqueue, int producers) {
        public Options {
            if (producers < 1 || producers > 256) {
                throw new InvalidValueException("--producers must be 1..256, got " + producers);
            }
            if (maxWarmup.isNegative()) {
                throw new InvalidValueException("--max-warmup must not be negative, got " + maxWarmup.toSeconds());
            }
            if (warmup < 0 || warmup > WarmUp.MAX_ROUND) {
                throw new InvalidValueException("--warmup must be 0.." + WarmUp.MAX_ROUND + ", got " + warmup);
            }
            if (jobs < 1 || jobs > 10_000_000) {
                throw new InvalidValueException("--jobs must be 1..10000000, got " + jobs);
            }
            if (!handler.equals(NoopHandler.NAME) && !handler.equals(OrdersHandler.NAME)) {
                throw new InvalidValueException("--handler must be noop or orders, got " + handler);
            }
            if (rate.isPresent() && !(rate.getAsDouble() > 0)) {
                throw new InvalidValueException("--rate must be positive, got " + rate.getAsDouble());
            }
        }
    }

    /** How far the run is: {@code phase} is {@code enqueue}, {@code process} or {@code offer+process}. */
    @FunctionalInterface
    public interface ProgressListener {
        /** Tells nobody (the warm-up's enqueueing). */
        ProgressListener SILENT = (phase, done, total) -> { };

        void progress(String phase, long done, long total);
    }

    private final BatonConfig config;
    private final Options options;
    private final ProgressListener progress;
    private final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final QueueName queue = QueueName.of("bench-" + run);
    private final QueueName warmupQueue = QueueName.of("warmup-" + run);

    private Benchmark(BatonConfig config, Options options, ProgressListener progress) {
        if (options.handler().equals(OrdersHandler.NAME) && config.get(MODE) != Mode.EXACTLY_ONCE) {
            throw new InvalidValueException("the orders handler writes in the ledger's transaction: it needs "
                    + "--mode exactly-once");
        }
        if (options.enqueue() == EnqueueRoute.OUTBOX && config.get(MODE) != Mode.EXACTLY_ONCE) {
            throw new InvalidValueException("--enqueue outbox writes the ledger's outbox: it needs "
                    + "--mode exactly-once");
        }
        this.config = config;
        this.options = options;
        this.progress = progress;
    }

    /** Runs the benchmark; the configuration names the endpoints, mode, concurrency and batch commit. */
    public static BenchResult run(BatonConfig config, Options options, ProgressListener progress)
            throws InterruptedException {
        return new Benchmark(config, options, progress).run();
    }

    private BenchResult run() throws InterruptedException {
        boolean ledger = config.get(MODE) == Mode.EXACTLY_ONCE;
        int transactions = WorkerSettings.transactionsAtOnce(config.get(CONCURRENCY), config.get(BATCH_COMMIT));
        if (ledger && config.poolSize() < transactions + 1) {
            throw new InvalidValueException("BATON_POOL_SIZE " + config.poolSize() + " is too small for concurrency "
                    + config.get(CONCURRENCY) + " in batches of " + config.get(BATCH_COMMIT) + ": use at least "
                    + (transactions + 1) + " (one connection per running transaction, one for lookups)");
        }
        BatonConfig benchConfig = ledger ? config.with(SCHEMA, "baton_bench_" + run) : config;
        Optional<OutboxThroughput.Rates> outbox = Optional.empty();
        if (options.enqueue() == EnqueueRoute.OUTBOX) {
            progress.progress("outbox-enqueue", 0, 1);
            outbox = Optional.of(OutboxThroughput.measure(config.with(SCHEMA, "baton_bench_tx_" + run),
                    QueueName.of("bench-tx-" + run), options.jobs(), options.producers(), payload()));
            progress.progress("outbox-enqueue", 1, 1);
        }
        CurrentRecorder timing = new CurrentRecorder();
        Baton baton = DemoHandlers.register(Baton.builder().config(benchConfig), false).observer(timing).build();
        // closed before the clean-up; one that could not be built created nothing to clean
        try (baton) {
            return measure(baton, timing, outbox);
        } finally {
            BenchCleanup.discard(benchConfig, List.of(queue, warmupQueue), ledger);
        }
    }

    private BenchResult measure(Baton baton, CurrentRecorder timing, Optional<OutboxThroughput.Rates> outbox)
            throws InterruptedException {
        baton.migrate();
        EnqueueJobsUseCase enqueue = options.enqueue() == EnqueueRoute.DIRECT ? baton.use(EnqueueJobsUseCase.class)
                : command -> baton.enqueueAll(command.jobs(), EnqueueRoute.OUTBOX);
        LoadGenerator load = new LoadGenerator(enqueue, payload());
        // the use case itself, not Baton.start, which would add a ledger janitor per warm-up round
        BenchWorker worker = new BenchWorker(baton.use(RunWorkerUseCase.class), timing,
                ConsumerName.of("bench-" + run), config.get(CONCURRENCY), options.handler(), config.get(GRACE),
                progress);
        int warmedUp = new WarmUp(load, worker, warmupQueue).run(options.warmup(), options.maxWarmup());
        try (HeapAfterGc heapAfterGc = new HeapAfterGc()) {
            ProcessProbes.resetPeaks();
            return measured(baton, load, worker, warmedUp, heapAfterGc, outbox);
        }
    }

    private BenchResult measured(Baton baton, LoadGenerator load, BenchWorker worker, int warmedUp,
                                 HeapAfterGc heapAfterGc, Optional<OutboxThroughput.Rates> outbox)
            throws InterruptedException {
        int jobs = options.jobs();
        LatencyRecorder recorder = new LatencyRecorder(queue.value() + "-", jobs,
                options.enqueue() == EnqueueRoute.OUTBOX);
        baton.use(JobLeases.class).declare(queue);
        double enqueueRate = options.rate().isEmpty() ? load.enqueueAll(queue, recorder, progress) : 0;
        long cpuBefore = ProcessProbes.cpuNanos();
        long jitBefore = ProcessProbes.jitMillis();
        double cpuPerJob;
        long jitDuringRun;
        try (BenchWorker.Run running = worker.start(queue, recorder)) {
            if (options.rate().isPresent()) {
                enqueueRate = load.offer(queue, recorder, options.rate().getAsDouble(), progress);
            }
            running.awaitAll(options.rate().isPresent() ? "offer+process" : "process");
            cpuPerJob = (ProcessProbes.cpuNanos() - cpuBefore) / (double) jobs;
            jitDuringRun = ProcessProbes.jitMillis() - jitBefore;
        }
        double keptHeapMib = ProcessProbes.mib(heapAfterGc.maxBytes()); // before the report's own arrays below
        Verdict verdict = verdict(baton, recorder);
        LatencyRecorder.Latencies latencies = recorder.latencies();
        return new BenchResult(config.get(MODE).label(), jobs, config.get(CONCURRENCY), options.handler(),
                config.get(BATCH_COMMIT), options.rate(),
                config.get(JOB_THREADS).resolve(config.get(BATCH_COMMIT)).label(),
                Runtime.version().toString(), enqueueRate,
                recorder.done() / Stopwatch.seconds(recorder.processingNanos()), latencies,
                Math.round(cpuPerJob / 100) / 10.0, warmedUp, jitDuringRun, ProcessProbes.peakHeapMib(), keptHeapMib,
                ProcessProbes.status("VmHWM"), ProcessProbes.status("VmRSS"), verdict.exactlyOnce(),
                verdict.checked(), ProcessProbes.loadAverage(), options.enqueue(), outbox);
    }

    /** Counts, through the ports, what the run's jobs left behind once the worker stopped. */
    private Verdict verdict(Baton baton, LatencyRecorder recorder) {
        QueueStats stats = baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(queue))
                .stats();
        if (config.get(MODE) != Mode.EXACTLY_ONCE) {
            return Verdict.atLeastOnce(recorder.eachCompletedOnce(), stats);
        }
        long ledgerRows = baton.use(ExecutionLedger.class).countCompleted(queue);
        Optional<EffectRecords.Count> effects = options.handler().equals(OrdersHandler.NAME)
                ? Optional.of(baton.use(EffectRecords.class).count(OrdersHandler.SHIPMENTS, recorder.prefix()))
                : Optional.empty();
        return Verdict.exactlyOnce(options.jobs(), recorder.eachCompletedOnce(), stats, ledgerRows, effects);
    }

    private String payload() {
        return options.handler().equals(OrdersHandler.NAME)
                ? "{\"orderId\":\"bench\",\"failTimes\":0,\"poison\":false,\"sleepMs\":0}" : "{}";
    }
}
