import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The least a JVM client pays for an {@code orders} job's transaction, for compare.sh: N threads, each on a connection
 * of its own, send the handler's insert, then the ledger's completion insert with the {@code COMMIT} behind it (as
 * Baton's RunThenComplete does: two round trips), again and again, through the PostgreSQL driver Baton ships. No
 * Redis, no hand-over between threads: what is left of Baton's CPU per job above this is Baton's own.
 *
 * <p>Run with the packaged jar on the class path (it holds the driver):
 * {@code java -cp bootstrap/cli/target/baton.jar docs/benchmarks/JdbcFloor.java JDBC_URL SCHEMA CLIENTS SECONDS [virtual]}.
 * With {@code virtual} (Java 21+) every client is a virtual thread, as Baton's jobs are on Java 24+
 * ({@code BATON_JOB_THREADS=auto}): the floor to read Baton's virtual-thread runs against.
 *
 * <p>With {@code REDIS_URI LEASE} behind, the least a JVM client pays for such a job delivered through a Redis Streams
 * consumer group: every client leases {@code LEASE} entries at a time from a stream filled beforehand and
 * acknowledges the ones it ran in the same round trip (one script: {@code XACK}, then {@code XREADGROUP}), through
 * the Redis client Baton ships, on one connection shared by all, as Baton does; no other hand-over, no bookkeeping.
 * Prints one line: {@code <transactions per second> <JVM CPU µs per transaction> <transactions, warm-up included>},
 * the first two measured after the warm-up, 3 s unless {@code -Dfloor.warmup=S} says otherwise.
 */
public final class JdbcFloor {
    /** Seconds of warm-up before the measurement: {@code -Dfloor.warmup=S}; the Redis client's path needs more. */
    private static final long WARMUP_SECONDS = Long.getLong("floor.warmup", 3);

    public static void main(String[] args) throws Exception {
        boolean virtual = args.length > 4 && args[4].equals("virtual");
        int redisAt = virtual ? 5 : 4; // where REDIS_URI LEASE begin, when given
        if (args.length < 4 || args.length != redisAt && args.length != redisAt + 2) {
            throw new IllegalArgumentException(
                    "usage: JdbcFloor JDBC_URL SCHEMA CLIENTS SECONDS [virtual] [REDIS_URI LEASE]");
        }
        String url = args[0];
        String schema = args[1];
        int clients = Integer.parseInt(args[2]);
        long seconds = Long.parseLong(args[3]);
        Deliveries deliveries = args.length == redisAt + 2
                ? Deliveries.filled(args[redisAt], Integer.parseInt(args[redisAt + 1]), seconds)
                : null;
        String effect = "insert into " + schema + ".demo_shipments (order_id, job_id, shipped_at) values (?, ?, now())";
        // RunThenComplete's completion insert, as compare.sh's pgbench script sends it
        String completion = "INSERT INTO " + schema + ".job_outcomes AS o (job_id, queue, type, attempt, consumer,"
                + " message_id, completed_at, result) VALUES (?, 'jdbc-floor', NULL, 1, 'jdbc-floor-client', ?, now(),"
                + " 'shipped bench') ON CONFLICT (job_id, queue) DO UPDATE SET state = CASE WHEN o.state = 'replayed'"
                + " THEN 'completed' ELSE 'ended before' END, type = EXCLUDED.type,"
                + " attempt = EXCLUDED.attempt, consumer = EXCLUDED.consumer, message_id = EXCLUDED.message_id,"
                + " result = EXCLUDED.result, completed_at = EXCLUDED.completed_at; COMMIT";
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong transactions = new AtomicLong();
        AtomicLong all = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        for (int client = 0; client < clients; client++) {
            String prefix = "jdbc-floor-" + System.nanoTime() + "-" + client + "-";
            String consumer = "client-" + client;
            Runnable task = () -> {
                try {
                    run(url, effect, completion, prefix, counting, stop, transactions, all,
                            deliveries == null ? null : deliveries.forConsumer(consumer));
                } catch (RuntimeException e) { // a client that died leaves no rate to print
                    failure.compareAndSet(null, e);
                    stop.set(true);
                }
            };
            Thread thread = virtual ? virtualThread(task) : new Thread(task);
            thread.start();
            threads.add(thread);
        }
        Thread.sleep(WARMUP_SECONDS * 1_000);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long before = System.nanoTime();
        counting.set(true);
        Thread.sleep(seconds * 1_000);
        counting.set(false);
        long elapsed = System.nanoTime() - before;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long done = transactions.get();
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        if (deliveries != null) {
            deliveries.close();
        }
        if (failure.get() != null) { // thrown anew here: the source launcher trims a trace to main's frames
            throw new IllegalStateException("a client failed: " + failure.get().getMessage(), failure.get());
        }
        System.out.printf("%.0f %.0f %d%n", done * 1e9 / elapsed, cpu / 1e3 / Math.max(1, done), all.get());
    }

    /** Through reflection, so that the file still compiles and runs on Java 17 without {@code virtual}. */
    private static Thread virtualThread(Runnable task) throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class)
                .invoke(builder, task);
    }

    private static void run(String url, String effect, String completion, String prefix, AtomicBoolean counting,
                            AtomicBoolean stop, AtomicLong transactions, AtomicLong all, Leases leases) {
        try (Connection connection = DriverManager.getConnection(url)) {
            connection.setAutoCommit(false);
            PreparedStatement insert = connection.prepareStatement(effect);
            PreparedStatement complete = connection.prepareStatement(completion);
            for (long job = 0; !stop.get(); job++) {
                String id = leases == null ? prefix + job : leases.next();
                insert.setString(1, "jdbc-floor");
                insert.setString(2, id);
                insert.executeUpdate();
                complete.setString(1, id);
                complete.setString(2, id);
                complete.execute(); // the COMMIT went with it: the driver sees the transaction end, begins the next
                all.incrementAndGet();
                if (counting.get()) {
                    transactions.incrementAndGet();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("JdbcFloor: " + e.getMessage(), e);
        }
    }

    /** A stream of entries to run, filled beforehand, and its consumer group; deleted on {@link #close}. */
    private record Deliveries(RedisClient client, StatefulRedisConnection<String, String> connection, String stream,
                              int lease) {
        private static final String GROUP = "floor";
        /** Acknowledges what the caller ran, then leases the next entries: one round trip, as Baton's lease. */
        private static final String ACK_AND_LEASE = "if #ARGV > 3 then redis.call('XACK', KEYS[1], ARGV[1],"
                + " unpack(ARGV, 4)) end return redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', ARGV[3],"
                + " 'STREAMS', KEYS[1], '>')";
        /**
         * Entries added beforehand per second of the run, warm-up included: more than the bare client runs here, so
         * that adding them stays out of the measurement. Clients that run out anyway have more added, one at a time.
         */
        private static final int ENTRIES_PER_SECOND = 10_000;
        /** Entries added when the clients ran out. */
        private static final int REFILL = 20_000;

        static Deliveries filled(String uri, int lease, long seconds) {
            RedisClient client = RedisClient.create(uri);
            StatefulRedisConnection<String, String> connection = client.connect();
            String stream = "jdbc-floor-" + System.nanoTime();
            connection.sync().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), GROUP,
                    XGroupCreateArgs.Builder.mkstream());
            Deliveries deliveries = new Deliveries(client, connection, stream, lease);
            deliveries.add(ENTRIES_PER_SECOND * (seconds + WARMUP_SECONDS + 2));
            return deliveries;
        }

        /** Adds {@code entries} entries, pipelined. */
        private void add(long entries) {
            RedisAsyncCommands<String, String> async = connection.async();
            Map<String, String> body = Map.of("payload", "{\"order\":\"bench\"}", "type", "orders");
            List<CompletableFuture<String>> added = new ArrayList<>();
            for (long entry = 0; entry < entries; entry++) {
                added.add(async.xadd(stream, new XAddArgs(), body).toCompletableFuture());
            }
            CompletableFuture.allOf(added.toArray(CompletableFuture[]::new)).orTimeout(5, TimeUnit.MINUTES).join();
        }

        Leases forConsumer(String consumer) {
            return new Leases(this, consumer);
        }

        List<String> acknowledgeAndLease(String consumer, List<String> acknowledged) {
            List<String> ids = ackAndLease(consumer, acknowledged);
            while (ids.isEmpty()) { // the stream ran out (the acknowledgements went): one client adds, the others wait
                synchronized (this) {
                    ids = ackAndLease(consumer, List.of());
                    if (ids.isEmpty()) {
                        add(REFILL);
                    }
                }
            }
            return ids;
        }

        private List<String> ackAndLease(String consumer, List<String> acknowledged) {
            String[] argv = new String[3 + acknowledged.size()];
            argv[0] = GROUP;
            argv[1] = consumer;
            argv[2] = Integer.toString(lease);
            for (int i = 0; i < acknowledged.size(); i++) {
                argv[3 + i] = acknowledged.get(i);
            }
            List<Object> reply = connection.sync().eval(ACK_AND_LEASE, ScriptOutputType.MULTI, new String[] {stream},
                    argv);
            List<String> ids = new ArrayList<>(lease);
            // [[stream, [[id, [field, value, ...]], ...]]], or a nil reply when nothing was new
            if (reply != null && !reply.isEmpty() && reply.get(0) != null) {
                List<?> entries = (List<?>) ((List<?>) reply.get(0)).get(1);
                for (Object entry : entries) {
                    ids.add((String) ((List<?>) entry).get(0));
                }
            }
            return ids;
        }

        void close() {
            connection.sync().del(stream);
            connection.close();
            client.shutdown();
        }
    }

    /** One client's leased entries: the next to run; when none is left, it acknowledges those and leases again. */
    private static final class Leases {
        private final Deliveries deliveries;
        private final String consumer;
        private List<String> leased = List.of();
        private int next;

        Leases(Deliveries deliveries, String consumer) {
            this.deliveries = deliveries;
            this.consumer = consumer;
        }

        /** The entry id to run next: its transaction commits before the next call, which acknowledges it. */
        String next() {
            if (next == leased.size()) {
                leased = deliveries.acknowledgeAndLease(consumer, leased);
                next = 0;
            }
            return leased.get(next++);
        }
    }
}
