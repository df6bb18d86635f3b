package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.bootstrap.testing.BatonCli;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One fault run: a queue of its own on some Redis (one server, or partitions on a cluster), a ledger schema of its
 * own on some PostgreSQL, the real CLI configured for them through the environment, the workers, the jobs enqueued
 * so far, the faults injected, and the invariant check at the end. Closing it kills the workers and removes the
 * queue's keys and the schema.
 */
final class Scenario implements AutoCloseable {
    static final int MAX_ATTEMPTS = 3;
    private static final Path SUMMARY = Path.of("target", "faults-summary.log");

    private final String name;
    private final String queue;
    private final long seed;
    private final Random random;
    private final Path dir;
    private final FaultTally faults = new FaultTally();
    private final List<JobSpec> jobs = new ArrayList<>();
    private final List<WorkerFleet> fleets = new ArrayList<>();
    private final boolean crashOnPoison;
    private final KeyLayout keys;
    private final String schema;
    private final String jdbcUrl;
    private BatonCli cli;
    private QueueProbe probe;
    private final LedgerProbe ledger;
    private int generations;
    private int batches;
    private String acceptedLoss = "";

    private Scenario(String name, String suffix, RedisTarget redis, int partitions, String jdbcUrl,
                     Map<String, String> overrides, boolean crashOnPoison) {
        this.name = name;
        this.crashOnPoison = crashOnPoison;
        this.queue = queueName(name, suffix);
        this.schema = ("faults_" + name + "_" + suffix).replace('-', '_').toLowerCase(Locale.ROOT);
        this.jdbcUrl = jdbcUrl;
        this.seed = SoakSize.seed();
        this.random = new Random(seed);
        this.dir = Path.of("target", "faults", queue);
        Map<String, String> env = new LinkedHashMap<>(redis.environment());
        env.put("BATON_JDBC_URL", jdbcUrl);
        env.put("BATON_SCHEMA", schema);
        env.put("BATON_QUEUES", queue);
        env.put("BATON_LEASE", "2s");
        env.put("BATON_DELIVERY_LIMIT", "6");
        env.put("BATON_MAX_ATTEMPTS", Integer.toString(MAX_ATTEMPTS));
        env.put("BATON_BACKOFF_INITIAL", "100ms");
        env.put("BATON_BACKOFF_MAX", "1s");
        env.put("BATON_CONCURRENCY", "4");
        env.put("BATON_GRACE", "10s");
        env.put("BATON_JOB_TIMEOUT", "30s");
        env.put("BATON_POOL_SIZE", "5");
        env.put("BATON_ADMIN_ADDRESS", "off");
        env.putAll(overrides);
        this.cli = new BatonCli(env, dir);
        this.keys = new KeyLayout(queue, partitions);
        this.probe = new QueueProbe(redis, keys);
        this.ledger = new LedgerProbe(jdbcUrl, schema);
    }

    /** A run on the shared servers. */
    static Scenario onSharedServers(String name, Map<String, String> overrides) {
        return on(name, TestEndpoints.redisUri(), TestEndpoints.jdbcUrl(), overrides);
    }

    /** A run on the given servers (private ones, for faults that restart them). */
    static Scenario on(String name, String redisUri, String jdbcUrl, Map<String, String> overrides) {
        return new Scenario(name, randomSuffix(), RedisTarget.server(redisUri), 1, jdbcUrl, overrides, false);
    }

    /**
     * A run on a Redis Cluster: its queue has {@code partitions} partitions, declared with {@code baton queue
     * declare}, and a name that puts some of them on every master.
     */
    static Scenario onCluster(String name, TestCluster cluster, int partitions, String jdbcUrl,
                              Map<String, String> overrides) {
        List<Integer> masters = cluster.masterPorts();
        String suffix = Stream.generate(Scenario::randomSuffix).limit(100)
                .filter(s -> Placement.of(cluster, new KeyLayout(queueName(name, s), partitions)).covers(masters))
                .findFirst().orElseThrow(() -> new IllegalStateException("no queue name of 100 tried spreads "
                        + partitions + " partitions over the masters " + masters));
        Scenario scenario = new Scenario(name, suffix, RedisTarget.cluster(cluster), partitions, jdbcUrl, overrides,
                false);
        try {
            scenario.cli.runOk("queue", "declare", scenario.queue, "--partitions", Integer.toString(partitions));
        } catch (RuntimeException e) {
            scenario.close();
            throw e;
        }
        return scenario;
    }

    /** A run whose workers halt on poison jobs ({@code --demo-crash-on-poison}). */
    static Scenario crashingOnPoison(String name, Map<String, String> overrides) {
        return new Scenario(name, randomSuffix(), RedisTarget.server(TestEndpoints.redisUri()), 1,
                TestEndpoints.jdbcUrl(), overrides, true);
    }

    private static String randomSuffix() {
        return Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    }

    private static String queueName(String name, String suffix) {
        return "faults-" + name + "-" + suffix;
    }

    String queue() {
        return queue;
    }

    Random random() {
        return random;
    }

    FaultTally faults() {
        return faults;
    }

    QueueProbe probe() {
        return probe;
    }

    LedgerProbe ledger() {
        return ledger;
    }

    BatonCli cli() {
        return cli;
    }

    /** The ledger's schema, where the outbox and its {@code enqueue(...)} function live too. */
    String schema() {
        return schema;
    }

    String jdbcUrl() {
        return jdbcUrl;
    }

    List<JobSpec> jobs() {
        return List.copyOf(jobs);
    }

    /** From now on, workers started and commands run use another Redis (the promoted replica of a failover). */
    void switchRedis(String redisUri) {
        cli = cli.with(Map.of("BATON_REDIS_URI", redisUri));
        probe.close();
        probe = new QueueProbe(RedisTarget.server(redisUri), keys);
    }

    /** Generates {@code count} jobs of {@code mix} and enqueues them with {@code baton enqueue --file}. */
    List<JobSpec> enqueue(JobMix mix, int count) {
        return enqueue(generate(mix, count));
    }

    /** Generates {@code count} jobs of {@code mix}, their ids unique in the run, without enqueueing them. */
    List<JobSpec> generate(JobMix mix, int count) {
        return mix.generate(queue + "-b" + (++generations), count, MAX_ATTEMPTS, random);
    }

    /** Enqueues {@code batch} with {@code baton enqueue --file}. */
    List<JobSpec> enqueue(List<JobSpec> batch) {
        Path file = JobMix.writeJsonLines(batch, dir.resolve("jobs-" + (++batches) + ".jsonl"));
        cli.runOk("enqueue", "--queue", queue, "--file", file.toString());
        jobs.addAll(batch);
        return List.copyOf(batch);
    }

    /** Puts jobs enqueued some other way (committed to the outbox) under the invariant. */
    void expect(List<JobSpec> enqueued) {
        jobs.addAll(enqueued);
    }

    /**
     * Takes jobs out of the invariant because the run destroys them on purpose (a Redis without persistence
     * restarted empty); the summary line reports them.
     */
    void acceptLoss(List<JobSpec> destroyed, String why) {
        jobs.removeAll(destroyed);
        acceptedLoss = " accepted-loss=" + destroyed.size() + " (" + why + ")";
    }

    /** Starts {@code size} workers ({@code w1}..) on the queue. */
    WorkerFleet startWorkers(int size, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("--handler", "orders"));
        if (crashOnPoison) {
            args.add("--demo-crash-on-poison");
        }
        args.addAll(List.of(extraArgs));
        WorkerFleet fleet = new WorkerFleet(cli, queue, size, args, dir.resolve("fleet-" + (fleets.size() + 1)),
                faults).startAll();
        fleets.add(fleet);
        return fleet;
    }

    /** What a supervisor does: restarts every worker of the run that died by itself. */
    void restartCrashedWorkers() {
        fleets.forEach(WorkerFleet::restartDead);
    }

    LedgerInvariant invariant() {
        return new LedgerInvariant(probe, ledger, MAX_ATTEMPTS, crashOnPoison);
    }

    /** Jobs that reached an outcome so far (completed or dead-lettered). */
    long settled() {
        return invariant().settled(jobs);
    }

    /**
     * Waits until every job reached an outcome and nothing is pending, delayed or undelivered, for as long as the run
     * moves (jobs settle or the group reads on); restarts crashed workers meanwhile when {@code supervised}. On a
     * stall the verdict still tells what was lost.
     *
     * @param stall how long nothing may move before the wait gives up
     */
    Verdict awaitDrained(Duration stall, WorkerFleet supervised) {
        try {
            new Progressing(stall, Duration.ofMillis(500)).until("queue " + queue + " drained",
                    () -> List.of(settled(), probe.deliveredUpTo()), () -> {
                        if (supervised != null) {
                            supervised.restartDead();
                        }
                        return probe.delayed() == 0 && probe.pending() == 0 && probe.allDelivered()
                                && settled() >= jobs.size();
                    });
        } catch (ConditionTimeoutException timeout) {
            faults.count("drain stalled");
        }
        return invariant().check(jobs);
    }

    /** Checks the ledger invariant, prints and records the summary line, fails on any deviation. */
    Verdict verify(Duration stall, WorkerFleet supervised) {
        Verdict verdict = awaitDrained(stall, supervised);
        String summary = verdict.summary(name, faults, seed) + acceptedLoss;
        report(summary);
        assertThat(verdict.holds()).as(summary + "\n" + verdict.details() + "\nworker logs under " + dir).isTrue();
        assertThat(faults.get("drain stalled")).as("drained, never still for " + stall).isZero();
        assertThat(faults.toString()).as("a running worker must survive every fault but a kill").doesNotContain(
                "stopped unexpectedly");
        return verdict;
    }

    /** Prints the verdict of a stage of the run (before its last fault, say) next to its summary line. */
    void note(String stage, Verdict verdict) {
        report(verdict.summary(name + " " + stage, faults, seed));
    }

    /** Prints a finding of the run next to its summary line. */
    void note(String finding) {
        report("[faults] " + name + ": " + finding);
    }

    /** Prints a line of the run and appends it to the summary log. */
    private static void report(String summary) {
        System.out.println(summary);
        try {
            Files.createDirectories(SUMMARY.getParent());
            Files.writeString(SUMMARY, summary + System.lineSeparator(), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        fleets.forEach(WorkerFleet::close);
        try {
            probe.deleteKeys();
            ledger.dropSchema();
        } finally {
            probe.close();
        }
    }
}
