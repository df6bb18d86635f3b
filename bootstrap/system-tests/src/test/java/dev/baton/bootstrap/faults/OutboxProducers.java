package dev.baton.bootstrap.faults;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Producers that enqueue through the outbox as an application does: each transaction writes its own orders (a row
 * per job in {@value #ORDERS}) and enqueues their jobs with {@code SELECT <schema>.enqueue(...)}, then commits, or
 * rolls back after the enqueues. Several threads, each on a JDBC connection of its own. Also writes rows that cannot
 * be published. {@link LedgerProbe} reads what became of them.
 */
final class OutboxProducers {
    /** The producers' own table: an order row exists exactly when its transaction committed. */
    static final String ORDERS = "outbox_orders";
    /** Jobs per producer transaction. */
    static final int TRANSACTION_SIZE = 5;

    private final String jdbcUrl;
    private final String schema;
    private final LedgerProbe ledger;
    private final String queue;
    private final int threads;
    private final Random random;

    /** Producers for the scenario's queue and schema; the schema must be migrated ({@code baton migrate}). */
    OutboxProducers(Scenario scenario, int threads) {
        this.jdbcUrl = scenario.jdbcUrl();
        this.schema = scenario.schema();
        this.ledger = scenario.ledger();
        this.queue = scenario.queue();
        this.threads = threads;
        this.random = new Random(scenario.random().nextLong());
        ledger.query(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE " + schema + "." + ORDERS + " (job_id text PRIMARY KEY,"
                        + " ordered_at timestamptz NOT NULL DEFAULT now())");
                return null;
            }
        });
    }

    /** What the producers committed and what they rolled back. */
    record Wave(List<JobSpec> committed, List<JobSpec> rolledBack) {
    }

    /**
     * Enqueues {@code jobs} in transactions of {@link #TRANSACTION_SIZE}, spread over the threads, of which
     * transactions holding {@code rollBack} jobs (chosen at random) roll back.
     */
    Wave enqueue(List<JobSpec> jobs, int rollBack) {
        if (jobs.size() % TRANSACTION_SIZE != 0 || rollBack % TRANSACTION_SIZE != 0) {
            throw new IllegalArgumentException("whole transactions of " + TRANSACTION_SIZE + " jobs only");
        }
        List<List<JobSpec>> transactions = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i += TRANSACTION_SIZE) {
            transactions.add(jobs.subList(i, i + TRANSACTION_SIZE));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < transactions.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, random);
        Set<Integer> rolledBack = new HashSet<>(order.subList(0, rollBack / TRANSACTION_SIZE));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> producers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                producers.add(pool.submit(() -> produce(transactions, rolledBack, first)));
            }
            for (Future<?> producer : producers) {
                producer.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("a producer failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
        List<JobSpec> committed = new ArrayList<>();
        List<JobSpec> abandoned = new ArrayList<>();
        for (int i = 0; i < transactions.size(); i++) {
            (rolledBack.contains(i) ? abandoned : committed).addAll(transactions.get(i));
        }
        return new Wave(List.copyOf(committed), List.copyOf(abandoned));
    }

    /** {@link #enqueue} on a thread of its own, so that faults hit while the producers write. */
    CompletableFuture<Wave> start(List<JobSpec> jobs, int rollBack) {
        return CompletableFuture.supplyAsync(() -> enqueue(jobs, rollBack));
    }

    /** One producer: the transactions {@code first}, {@code first + threads}, … on a connection of its own. */
    private Void produce(List<List<JobSpec>> transactions, Set<Integer> rolledBack, int first) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             PreparedStatement order = connection.prepareStatement("INSERT INTO " + schema + "." + ORDERS
                     + " (job_id) VALUES (?)");
             PreparedStatement enqueue = connection.prepareStatement("SELECT " + schema + ".enqueue(?, ?, ?, ?)")) {
            connection.setAutoCommit(false);
            for (int i = first; i < transactions.size(); i += threads) {
                for (JobSpec job : transactions.get(i)) {
                    order.setString(1, job.jobId());
                    order.executeUpdate();
                    enqueue.setString(1, queue);
                    enqueue.setString(2, job.jobId());
                    enqueue.setString(3, job.payload());
                    enqueue.setString(4, JobSpec.TYPE);
                    enqueue.execute();
                }
                if (rolledBack.contains(i)) {
                    connection.rollback();
                } else {
                    connection.commit();
                }
            }
        }
        return null;
    }

    /**
     * Rows the relay must dead-letter MALFORMED and go on: written straight into {@code job_outbox}, around the
     * function's checks (a queue name that cannot exist, an empty job id, a job id with a control character, a
     * payload over the 1 MiB limit, a header named like a field of the wire format, which Redis cannot carry).
     *
     * @return the positions of the rows, and what each one's reason must say
     */
    Map<Long, String> writeUnpublishableRows() {
        String insert = "INSERT INTO " + schema + ".job_outbox (job_id, queue, payload) VALUES ";
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put(insert + "('bad-queue', 'no such queue!', '{}') RETURNING position",
                "queue name 'no such queue!' is invalid");
        rows.put(insert + "('', '" + queue + "', '{}') RETURNING position", "job id must have 1..256 characters");
        rows.put(insert + "(E'bad\\nid', '" + queue + "', '{}') RETURNING position", "job id must be printable");
        rows.put(insert + "('bad-payload', '" + queue + "', repeat('x', 1048577)) RETURNING position",
                "payload over the limit of 1048576");
        rows.put("INSERT INTO " + schema + ".job_outbox (job_id, queue, payload, headers) VALUES ('bad-header', '"
                + queue + "', '{}', '{\"attempt\": \"7\"}') RETURNING position",
                "header 'attempt' is a field of Baton's wire protocol");
        Map<Long, String> written = new LinkedHashMap<>();
        ledger.query(connection -> {
            for (Map.Entry<String, String> row : rows.entrySet()) {
                try (Statement statement = connection.createStatement();
                     ResultSet position = statement.executeQuery(row.getKey())) {
                    position.next();
                    written.put(position.getLong(1), row.getValue());
                }
            }
            return null;
        });
        return written;
    }
}
