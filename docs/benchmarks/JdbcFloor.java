import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The least a JVM client pays for an {@code orders} job's transaction, for compare.sh: N threads, each on a connection
 * of its own, send the handler's insert, then the ledger's completion insert with the {@code COMMIT} behind it (as
 * Baton's RunThenComplete does: two round trips), again and again, through the PostgreSQL driver Baton ships. No
 * Redis, no hand-over between threads: what is left of Baton's CPU per job above this is Baton's own.
 *
 * <p>Run with the packaged jar on the class path (it holds the driver):
 * {@code java -cp bootstrap/target/baton.jar docs/benchmarks/JdbcFloor.java JDBC_URL SCHEMA CLIENTS SECONDS [virtual]}.
 * With {@code virtual} (Java 21+) every client is a virtual thread, as Baton's jobs are on Java 24+
 * ({@code BATON_JOB_THREADS=auto}): the floor to read Baton's virtual-thread runs against.
 * Prints one line: {@code <transactions per second> <JVM CPU µs per transaction> <transactions, warm-up included>},
 * the first two measured after 3 s of warm-up.
 */
public final class JdbcFloor {
    private static final long WARMUP_MILLIS = 3_000;

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && !(args.length == 5 && args[4].equals("virtual"))) {
            throw new IllegalArgumentException("usage: JdbcFloor JDBC_URL SCHEMA CLIENTS SECONDS [virtual]");
        }
        boolean virtual = args.length == 5;
        String url = args[0];
        String schema = args[1];
        int clients = Integer.parseInt(args[2]);
        long seconds = Long.parseLong(args[3]);
        String effect = "insert into " + schema + ".demo_shipments (order_id, job_id, shipped_at) values (?, ?, now())";
        // RunThenComplete's completion insert, as compare.sh's pgbench script sends it
        String completion = "INSERT INTO " + schema + ".job_outcomes AS o (job_id, queue, type, attempt, consumer,"
                + " message_id, completed_at, result) VALUES (?, 'jdbc-floor', NULL, 1, 'jdbc-floor-client', ?, now(),"
                + " 'shipped bench') ON CONFLICT (job_id) DO UPDATE SET state = CASE WHEN o.state = 'replayed' THEN"
                + " 'completed' ELSE 'ended before' END, queue = EXCLUDED.queue, type = EXCLUDED.type,"
                + " attempt = EXCLUDED.attempt, consumer = EXCLUDED.consumer, message_id = EXCLUDED.message_id,"
                + " result = EXCLUDED.result, completed_at = EXCLUDED.completed_at; COMMIT";
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong transactions = new AtomicLong();
        AtomicLong all = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            String prefix = "jdbc-floor-" + System.nanoTime() + "-" + client + "-";
            Runnable task = () -> run(url, effect, completion, prefix, counting, stop, transactions, all);
            Thread thread = virtual ? virtualThread(task) : new Thread(task);
            thread.start();
            threads.add(thread);
        }
        Thread.sleep(WARMUP_MILLIS);
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
        System.out.printf("%.0f %.0f %d%n", done * 1e9 / elapsed, cpu / 1e3 / Math.max(1, done), all.get());
    }

    /** Through reflection, so that the file still compiles and runs on Java 17 without {@code virtual}. */
    private static Thread virtualThread(Runnable task) throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class)
                .invoke(builder, task);
    }

    private static void run(String url, String effect, String completion, String prefix, AtomicBoolean counting,
                            AtomicBoolean stop, AtomicLong transactions, AtomicLong all) {
        try (Connection connection = DriverManager.getConnection(url)) {
            connection.setAutoCommit(false);
            PreparedStatement insert = connection.prepareStatement(effect);
            PreparedStatement complete = connection.prepareStatement(completion);
            for (long job = 0; !stop.get(); job++) {
                String id = prefix + job;
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
}
