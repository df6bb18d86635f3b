package dev.baton.bootstrap.bench;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.application.port.out.WorkerObserver;
import dev.baton.application.service.worker.WorkerService;
import dev.baton.application.service.worker.WorkerSettings;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.demo.DemoShipments;
import dev.baton.bootstrap.demo.NoopHandler;
import dev.baton.bootstrap.demo.OrdersHandler;
import dev.baton.bootstrap.wiring.DemoHandlersModule;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code baton bench}: runs N jobs through a fresh queue (and, exactly-once, a fresh PostgreSQL schema) on the
 * configured Redis and PostgreSQL, with Baton's own wiring, and measures enqueue and processing rates, latencies and
 * memory. Everything it creates is deleted afterwards.
 */
public final class Benchmark {
    /** Jobs per pipelined enqueue call. */
    static final int ENQUEUE_BATCH = 1_000;
    private static final int WARMUP_LIMIT = 10_000_000;
    private static final long MIB = 1024 * 1024;
    private static final Duration STALL = Duration.ofSeconds(60);
    private static final long PROGRESS_EVERY_NANOS = Duration.ofMillis(200).toNanos();
    /** Warm-up rounds go on until the JIT compiled for less than this share of a round, or for {@code maxWarmup}. */
    private static final double JIT_QUIET_SHARE = 0.05;
    /** After the first round, a round lasts about this long, so that a fast mode's rounds are not mere bursts. */
    private static final Duration ROUND = Duration.ofSeconds(3);

    /**
     * @param jobs        how many jobs
     * @param handler     {@code noop} or {@code orders} (exactly-once only: it writes a demo row per job)
     * @param batchCommit jobs per ledger transaction
     * @param rate        jobs offered per second while the worker runs; empty: enqueue all first, then process
     * @param warmup      jobs of the first warm-up round, run first on a queue of their own, not measured: rounds
     *                    (later ones of ~3 s) go on until the JIT is quiet (it compiled for under 5% of the last
     *                    round)
     * @param maxWarmup   no warm-up round starts after this long
     */
    public record Options(int jobs, String handler, int batchCommit, OptionalDouble rate, int warmup,
                          Duration maxWarmup) {
        public Options {
            if (maxWarmup.isNegative()) {
                throw new InvalidValueException("--max-warmup must not be negative, got " + maxWarmup.toSeconds());
            }
            if (warmup < 0 || warmup > WARMUP_LIMIT) {
                throw new InvalidValueException("--warmup must be 0.." + WARMUP_LIMIT + ", got " + warmup);
            }
            if (jobs < 1 || jobs > 10_000_000) {
                throw new InvalidValueException("--jobs must be 1..10000000, got " + jobs);
            }
            if (!handler.equals(NoopHandler.NAME) && !handler.equals(OrdersHandler.NAME)) {
                throw new InvalidValueException("--handler must be noop or orders, got " + handler);
            }
            if (batchCommit < 1 || batchCommit > WorkerSettings.MAX_BATCH_COMMIT) {
                throw new InvalidValueException("--batch-commit must be 1.." + WorkerSettings.MAX_BATCH_COMMIT
                        + ", got " + batchCommit);
            }
            if (rate.isPresent() && !(rate.getAsDouble() > 0)) {
                throw new InvalidValueException("--rate must be positive, got " + rate.getAsDouble());
            }
        }
    }

    /** How far the run is: {@code phase} is {@code enqueue}, {@code process} or {@code offer+process}. */
    @FunctionalInterface
    public interface ProgressListener {
        void progress(String phase, long done, long total);
    }

    private final BatonConfig config;
    private final Options options;
    private final ProgressListener progress;
    private final String run = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final QueueName queue = QueueName.of("bench-" + run);
    private final QueueName warmupQueue = QueueName.of("warmup-" + run);

    private Benchmark(BatonConfig config, Options options, ProgressListener progress) {
        if (options.handler().equals(OrdersHandler.NAME) && config.mode() != Mode.EXACTLY_ONCE) {
            throw new InvalidValueException("the orders handler writes in the ledger's transaction: it needs "
                    + "--mode exactly-once");
        }
        this.config = config;
        this.options = options;
        this.progress = progress;
    }

    /** Runs the benchmark; the configuration names the endpoints, mode and concurrency. */
    public static BenchResult run(BatonConfig config, Options options, ProgressListener progress)
            throws InterruptedException {
        return new Benchmark(config, options, progress).run();
    }

    private BenchResult run() throws InterruptedException {
        boolean ledger = config.mode() == Mode.EXACTLY_ONCE;
        String schema = "baton_bench_" + run;
        if (ledger && config.poolSize() < transactions() + 1) {
            throw new InvalidValueException("BATON_POOL_SIZE " + config.poolSize() + " is too small for concurrency "
                    + config.concurrency() + " in batches of " + options.batchCommit() + ": use at least "
                    + (transactions() + 1) + " (one connection per running transaction, one for lookups)");
        }
        BatonConfig benchConfig = ledger ? config.withSchema(schema) : config;
        try (Baton baton = Baton.builder().config(benchConfig).module(new DemoHandlersModule(false)).build()) {
            try {
                return measure(baton, benchConfig, ledger ? Optional.of(schema) : Optional.empty());
            } finally {
                baton.use(RedisAdapter.class).deleteQueue(queue);
                baton.use(RedisAdapter.class).deleteQueue(warmupQueue);
                if (ledger) {
                    baton.use(PostgresAdapter.class).dropSchema();
                }
            }
        }
    }

    /** How many ledger transactions the worker runs at once: one per batch. */
    private int transactions() {
        return transactionsAtOnce(config.concurrency(), options.batchCommit());
    }

    /** One transaction per batch of {@code batchCommit} of the {@code concurrency} running jobs. */
    public static int transactionsAtOnce(int concurrency, int batchCommit) {
        return (concurrency + batchCommit - 1) / batchCommit;
    }

    private BenchResult measure(Baton baton, BatonConfig benchConfig, Optional<String> schema)
            throws InterruptedException {
        baton.migrate();
        String payload = payload();
        int warmedUp = warmUp(baton, benchConfig, payload);
        try (HeapAfterGc heapAfterGc = new HeapAfterGc()) {
            resetPeaks();
            return measured(baton, benchConfig, schema, payload, warmedUp, heapAfterGc);
        }
    }

    private BenchResult measured(Baton baton, BatonConfig benchConfig, Optional<String> schema, String payload,
                                 int warmedUp, HeapAfterGc heapAfterGc) throws InterruptedException {
        int jobs = options.jobs();
        LatencyRecorder recorder = new LatencyRecorder(queue.value() + "-", jobs, baton.use(WorkerObserver.class));
        baton.use(StreamTransport.class).declare(queue);
        double enqueueRate = 0;
        double cpuPerJob = 0;
        long jitDuringRun = 0;
        if (options.rate().isEmpty()) {
            long began = System.nanoTime();
            for (int from = 0; from < jobs; from += ENQUEUE_BATCH) {
                enqueue(baton, queue, recorder, payload, from, Math.min(jobs, from + ENQUEUE_BATCH));
                progress.progress("enqueue", Math.min(jobs, from + ENQUEUE_BATCH), jobs);
            }
            enqueueRate = jobs / seconds(System.nanoTime() - began);
        }
        long cpuBefore = processCpuNanos();
        long jitBefore = jitMillis();
        RunningWorker worker = startWorker(baton, benchConfig, recorder, queue);
        try {
            if (options.rate().isPresent()) {
                enqueueRate = offer(baton, recorder, payload, options.rate().getAsDouble());
            }
            awaitAll(recorder, options.rate().isPresent() ? "offer+process" : "process", jobs);
            cpuPerJob = (processCpuNanos() - cpuBefore) / (double) jobs;
            jitDuringRun = jitMillis() - jitBefore;
        } finally {
            worker.stop(benchConfig.grace());
        }
        double keptHeapMib = mib(heapAfterGc.maxBytes()); // before the report's own arrays below
        QueueStats stats = baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(queue))
                .stats();
        boolean acknowledged = stats.pending() == 0 && stats.lag().orElse(0) == 0 && stats.dead() == 0
                && stats.delayed() == 0;
        boolean ranOnce = recorder.eachCompletedOnce() && recorder.done() == jobs;
        String check;
        boolean exactlyOnce;
        if (schema.isPresent()) {
            long ledgerRows = baton.use(ExecutionLedger.class).countCompleted(queue);
            DemoShipments.Count demo = options.handler().equals(OrdersHandler.NAME)
                    ? DemoShipments.count(config.jdbcUrl(), schema.get(), queue.value() + "-")
                    : new DemoShipments.Count(jobs, jobs);
            exactlyOnce = ranOnce && acknowledged && ledgerRows == jobs && demo.rows() == jobs
                    && demo.distinctJobs() == jobs;
            check = "ledger rows " + ledgerRows + (options.handler().equals(OrdersHandler.NAME)
                    ? ", demo_shipments rows " + demo.rows() + " (" + demo.distinctJobs() + " distinct jobs)" : "")
                    + ", each job committed once, none pending/delayed/dead";
        } else {
            exactlyOnce = ranOnce && acknowledged;
            check = "each job's handler completed once (no retry, no redelivery), all acknowledged, none "
                    + "pending/delayed/dead";
        }
        LatencyRecorder.Latencies latencies = recorder.latencies();
        return new BenchResult(benchConfig.mode().label(), jobs, benchConfig.concurrency(), options.handler(),
                options.batchCommit(), options.rate(), benchConfig.jobThreads().resolve(options.batchCommit()).label(),
                Runtime.version().toString(), enqueueRate,
                recorder.done() / seconds(recorder.processingNanos()), latencies, Math.round(cpuPerJob / 100) / 10.0,
                warmedUp, jitDuringRun, peakHeapMib(), keptHeapMib, status("VmHWM"), status("VmRSS"), exactlyOnce,
                check, loadAverage());
    }

    /**
     * Runs rounds of jobs on the warm-up queue, unmeasured, until the JIT is quiet: on two cores a JIT still compiling
     * takes a quarter of the CPU, and the measurement would be of the compiler. The first round has {@code --warmup}
     * jobs, later ones as many as ran in about {@link #ROUND} (at least {@code --warmup}).
     *
     * @return how many warm-up jobs ran
     */
    private int warmUp(Baton baton, BatonConfig benchConfig, String payload) throws InterruptedException {
        if (options.warmup() == 0) {
            return 0;
        }
        long deadline = System.nanoTime() + options.maxWarmup().toNanos();
        int warmed = 0;
        int perRound = options.warmup();
        for (int round = 1; ; round++) {
            LatencyRecorder warm = new LatencyRecorder(warmupQueue.value() + "-" + round + "-", perRound,
                    baton.use(WorkerObserver.class));
            for (int from = 0; from < perRound; from += ENQUEUE_BATCH) {
                enqueue(baton, warmupQueue, warm, payload, from, Math.min(perRound, from + ENQUEUE_BATCH));
            }
            long began = System.nanoTime();
            long jitBefore = jitMillis();
            RunningWorker worker = startWorker(baton, benchConfig, warm, warmupQueue);
            try {
                awaitAll(warm, "warmup " + round, perRound);
            } finally {
                worker.stop(benchConfig.grace());
            }
            warmed += perRound;
            double took = seconds(System.nanoTime() - began);
            if ((jitMillis() - jitBefore) / (took * 1_000) < JIT_QUIET_SHARE || System.nanoTime() - deadline > 0) {
                return warmed;
            }
            perRound = (int) Math.min(WARMUP_LIMIT, Math.max(options.warmup(), perRound / took * ROUND.toSeconds()));
        }
    }

    private RunningWorker startWorker(Baton baton, BatonConfig benchConfig, WorkerObserver observer,
                                      QueueName consumed) {
        WorkerSettings settings = baton.use(WorkerSettings.class).withBatchCommit(options.batchCommit());
        StreamTransport transport = baton.use(StreamTransport.class);
        WorkerService service = new WorkerService(transport, transport, baton.use(ExecutionLedger.class),
                baton.use(JobHandlers.class), settings, baton.use(Clock.class),
                () -> ThreadLocalRandom.current().nextDouble(), observer);
        return service.start(new RunWorkerUseCase.Command(List.of(consumed), ConsumerName.of("bench-" + run),
                benchConfig.concurrency(), Optional.of(options.handler())));
    }

    private String payload() {
        return options.handler().equals(OrdersHandler.NAME)
                ? "{\"orderId\":\"bench\",\"failTimes\":0,\"poison\":false,\"sleepMs\":0}" : "{}";
    }

    private static void enqueue(Baton baton, QueueName target, LatencyRecorder recorder, String payload, int from,
                                int to) {
        List<EnqueueJobUseCase.Command> commands = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            commands.add(EnqueueJobUseCase.Command.now(target, JobId.of(recorder.jobId(i)), payload));
        }
        long now = System.nanoTime();
        for (int i = from; i < to; i++) {
            recorder.offered(i, now);
        }
        baton.enqueueAll(commands);
    }

    /** Offers the jobs at a steady rate, each as it falls due. @return the rate achieved */
    private double offer(Baton baton, LatencyRecorder recorder, String payload, double rate) {
        int jobs = options.jobs();
        long began = System.nanoTime();
        int sent = 0;
        long lastReport = began;
        while (sent < jobs) {
            long now = System.nanoTime();
            int due = (int) Math.min(jobs, (long) ((now - began) / 1e9 * rate) + 1);
            if (due > sent) {
                int to = Math.min(due, sent + ENQUEUE_BATCH);
                enqueue(baton, queue, recorder, payload, sent, to);
                sent = to;
            } else {
                // asleep until the next job is due: polling four times per job took CPU from the worker measured
                LockSupport.parkNanos(began + (long) (sent / rate * 1e9) - now);
            }
            if (now - lastReport > PROGRESS_EVERY_NANOS) {
                progress.progress("offer+process", recorder.done(), jobs);
                lastReport = now;
            }
        }
        return jobs / seconds(System.nanoTime() - began);
    }

    private void awaitAll(LatencyRecorder recorder, String phase, int jobs) throws InterruptedException {
        long lastDone = -1;
        long lastChange = System.nanoTime();
        while (recorder.done() < jobs) {
            Thread.sleep(50);
            long done = recorder.done();
            progress.progress(phase, done, jobs);
            if (done != lastDone) {
                lastDone = done;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > STALL.toNanos()) {
                throw new IllegalStateException("no job completed for " + STALL.toSeconds() + " s: " + done + " of "
                        + jobs + " done, " + recorder.failures() + " failed attempts, "
                        + recorder.deadLettered() + " dead-lettered");
            }
        }
        progress.progress(phase, recorder.done(), jobs);
    }

    private static double seconds(long nanos) {
        return Math.max(1e-9, nanos / 1e9);
    }

    /** CPU time of the whole process (every thread: worker, Redis client, GC, JIT), -1 where unknown. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** Milliseconds the JIT compilers have spent so far (0 where the JVM does not tell). */
    private static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private static void resetPeaks() {
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    /** The heap pools' peaks added up, garbage included: an upper bound of the heap the run needed. */
    private static double peakHeapMib() {
        long bytes = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .mapToLong(pool -> pool.getPeakUsage().getUsed())
                .sum();
        return mib(bytes);
    }

    private static double mib(long bytes) {
        return Math.round(bytes * 10.0 / MIB) / 10.0;
    }

    /** A {@code /proc/self/status} size in MiB, or -1 where there is none (not Linux). */
    private static double status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field + ":")) {
                    long kib = Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
                    return Math.round(kib * 10.0 / 1024) / 10.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
