package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.DueHorizon;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.postgresql.PGConnection;

/**
 * The outbox in {@code job_outbox}: each call one statement in a transaction of its own (autocommit). The claim is an
 * {@code UPDATE} of rows picked {@code FOR UPDATE SKIP LOCKED}, so relays side by side never claim the same row.
 * {@link #awaitNewRows} listens on a connection of its own for the notification that every committed insert sends.
 */
final class PostgresJobOutbox implements JobOutbox {
    /** Opens the connection the relay listens on, kept open until it fails. */
    interface ListenerConnections {
        Connection open() throws SQLException;
    }

    private final Jdbi jdbi;
    private final String schema;
    private final ListenerConnections listenerConnections;
    private final String claimSql;
    private final String publishedSql;
    private final String malformedSql;
    private final String forgetSql;
    private final String republishSql;
    private final String backlogSql;
    private final String claimingSql;
    private final String stopClaimingSql;
    /** The last position the previous look at published rows reached ({@link #forgetEnded}); 0: the first row. */
    private final AtomicLong forgetAfter = new AtomicLong();
    private Connection listener;

    PostgresJobOutbox(Jdbi jdbi, String schema, ListenerConnections listenerConnections) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.listenerConnections = Objects.requireNonNull(listenerConnections, "listener connections");
        String outbox = schema + ".job_outbox";
        // one statement marks the batch published before and claims the next; the claim skips the rows it marks
        this.claimSql = "WITH published AS (UPDATE " + outbox + " SET published_at = :at, claimed_until = NULL"
                + " WHERE position = ANY(:published))"
                + " UPDATE " + outbox + " o SET claimed_until = :until FROM (SELECT position FROM " + outbox
                + " WHERE published_at IS NULL AND malformed IS NULL"
                + " AND (claimed_until IS NULL OR claimed_until <= :now)"
                + " AND position <> ALL(:published)"
                + " ORDER BY position LIMIT :max FOR UPDATE SKIP LOCKED) c WHERE o.position = c.position"
                + " RETURNING o.position, o.job_id, o.queue, o.type, o.payload, o.due_at, o.enqueued_at,"
                + " ARRAY(SELECT key FROM jsonb_each_text(o.headers) ORDER BY key) AS header_names,"
                + " ARRAY(SELECT value FROM jsonb_each_text(o.headers) ORDER BY key) AS header_values";
        this.publishedSql = "UPDATE " + outbox + " SET published_at = :at, claimed_until = NULL"
                + " WHERE position = ANY(:positions)";
        this.malformedSql = "UPDATE " + outbox + " SET malformed = :reason, claimed_until = NULL"
                + " WHERE position = :position";
        // a window of published rows after :after (job_outbox_published_idx), each probing job_outcomes' primary key
        // (a subquery per row, whatever the statistics say); the ended ones deleted by position
        this.forgetSql = "WITH window_rows AS (SELECT o.position, (SELECT r.state FROM " + schema + ".job_outcomes r"
                + " WHERE r.job_id = o.job_id AND r.queue = o.queue) IN ('completed', 'dead', 'purged') AS ended"
                + " FROM " + outbox + " o"
                + " WHERE o.published_at IS NOT NULL AND o.position > :after ORDER BY o.position LIMIT :max),"
                + " forgotten AS (DELETE FROM " + outbox + " WHERE position = ANY(ARRAY(SELECT position"
                + " FROM window_rows WHERE ended)) AND published_at IS NOT NULL RETURNING 1)"
                + " SELECT (SELECT count(*)::int FROM window_rows) AS looked_at,"
                + " (SELECT max(position) FROM window_rows)"
                + " AS last, (SELECT count(*)::int FROM forgotten) AS forgotten";
        // the epoch row's lock serializes relays: one that waited sees the new epoch and changes nothing
        this.republishSql = "WITH changed AS (UPDATE " + schema + ".job_outbox_epoch SET epoch = :epoch"
                + " WHERE epoch IS DISTINCT FROM :epoch RETURNING 1), republished AS (UPDATE " + outbox + " o"
                + " SET published_at = NULL, claimed_until = NULL WHERE EXISTS (SELECT FROM changed)"
                + " AND o.published_at IS NOT NULL AND NOT EXISTS (SELECT FROM " + schema + ".job_outcomes r"
                + " WHERE r.job_id = o.job_id AND r.queue = o.queue AND r.state IN ('completed', 'dead', 'purged'))"
                + " RETURNING 1)"
                + " SELECT count(*)::int FROM republished";
        // the database's clock, as the producers' commits read the mark with (V10__job_outbox_claiming_relays.sql)
        this.claimingSql = "INSERT INTO " + schema + ".job_outbox_claiming (relay, until) VALUES (:relay,"
                + " clock_timestamp() + :lease_ms * interval '1 millisecond') ON CONFLICT (relay)"
                + " DO UPDATE SET until = EXCLUDED.until";
        this.stopClaimingSql = "SELECT " + schema + ".job_outbox_stop_claiming(?)";
        // each part reads a partial index: the waiting rows' and the malformed rows'
        String waiting = " FROM " + outbox + " WHERE published_at IS NULL AND malformed IS NULL";
        this.backlogSql = "SELECT (SELECT count(*)" + waiting + ") AS waiting, (SELECT enqueued_at" + waiting
                + " ORDER BY position LIMIT 1) AS oldest, (SELECT count(*) FROM " + outbox
                + " WHERE malformed IS NOT NULL) AS malformed";
    }

    @Override
    public List<Entry> claim(int max, Instant now, Instant claimedUntil) {
        return markPublishedAndClaim(List.of(), now, max, now, claimedUntil);
    }

    @Override
    public List<Entry> markPublishedAndClaim(Collection<Long> published, Instant at, int max, Instant now,
                                             Instant claimedUntil) {
        return withHandle("could not claim outbox rows", handle -> claim(handle, published, at, max, now,
                claimedUntil));
    }

    @Override
    public void keepClaiming(String relay, Duration lease) {
        withHandle("could not mark relay " + relay + " claiming", handle -> handle.createUpdate(claimingSql)
                .bind("relay", relay).bind("lease_ms", lease.toMillis()).execute());
    }

    /** One transaction: the mark goes, the commits that found it end (job_outbox_stop_claiming), then the claim. */
    @Override
    public List<Entry> stopClaimingAndClaim(String relay, Collection<Long> published, Instant at, int max,
                                            Instant now, Instant claimedUntil) {
        return withHandle("could not stop relay " + relay + " claiming", handle -> handle.inTransaction(inside -> {
            inside.execute(stopClaimingSql, relay);
            return claim(inside, published, at, max, now, claimedUntil);
        }));
    }

    private List<Entry> claim(Handle handle, Collection<Long> published, Instant at, int max, Instant now,
                              Instant claimedUntil) {
        return handle.createQuery(claimSql)
                .bindArray("published", Long.class, List.copyOf(published)).bind("at", at)
                .bind("until", claimedUntil).bind("now", now).bind("max", max)
                .map((rows, context) -> entry(rows, now)).list().stream()
                .sorted(Comparator.comparingLong(Entry::position)).toList();
    }

    /**
     * One row as a job, or as malformed with the reason its values are no job: a due time beyond the horizon from
     * {@code now} is one (a row written before the function checked it).
     */
    private static Entry entry(ResultSet row, Instant now) throws SQLException {
        long position = row.getLong("position");
        try {
            Optional<Instant> due = Optional.ofNullable(row.getTimestamp("due_at")).map(Timestamp::toInstant)
                    .map(instant -> DueHorizon.check(instant, now));
            Job job = new Job(JobId.of(row.getString("job_id")), QueueName.of(row.getString("queue")),
                    Optional.ofNullable(row.getString("type")), row.getString("payload"), 0,
                    row.getTimestamp("enqueued_at").toInstant(), due, Optional.empty(), headers(row));
            return new Entry.Ready(position, job);
        } catch (InvalidValueException e) {
            return new Entry.Malformed(position, row.getString("queue"), rawFields(row), e.getMessage());
        }
    }

    /** A malformed row's values as a stream entry's fields, kept verbatim for its dead letter. */
    private static Map<String, String> rawFields(ResultSet row) throws SQLException {
        Map<String, String> fields = new HashMap<>(headers(row));
        putIfPresent(fields, "job_id", row.getString("job_id"));
        putIfPresent(fields, "payload", row.getString("payload"));
        putIfPresent(fields, "type", row.getString("type"));
        Timestamp enqueuedAt = row.getTimestamp("enqueued_at");
        if (enqueuedAt != null) {
            fields.put("enqueued_at", Long.toString(enqueuedAt.toInstant().toEpochMilli()));
        }
        return fields;
    }

    private static void putIfPresent(Map<String, String> fields, String name, String value) {
        if (value != null) {
            fields.put(name, value);
        }
    }

    private static Map<String, String> headers(ResultSet row) throws SQLException {
        String[] names = (String[]) row.getArray("header_names").getArray();
        String[] values = (String[]) row.getArray("header_values").getArray();
        Map<String, String> headers = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            headers.put(names[i], values[i]);
        }
        return headers;
    }

    @Override
    public void markPublished(Collection<Long> positions, Instant at) {
        withHandle("could not mark " + positions.size() + " outbox rows published", handle -> handle
                .createUpdate(publishedSql).bind("at", at).bindArray("positions", Long.class, List.copyOf(positions))
                .execute());
    }

    @Override
    public void markMalformed(long position, String reason) {
        withHandle("could not mark outbox row " + position + " malformed", handle -> handle.createUpdate(malformedSql)
                .bind("reason", reason).bind("position", position).execute());
    }

    @Override
    public int republishAfterLoss(String transportEpoch) {
        return withHandle("could not record the transport's epoch", handle -> handle.createQuery(republishSql)
                .bind("epoch", transportEpoch).mapTo(Integer.class).one());
    }

    /**
     * Looks at the next {@code max} published rows after where the last look stopped, and starts over at the first
     * once a look reached the last: each statement reads a bounded window, however many rows before it wait for
     * their jobs to end (delayed jobs, for example).
     */
    @Override
    public int forgetEnded(int max) {
        long after = forgetAfter.get();
        return withHandle("could not forget ended outbox rows", handle -> handle.createQuery(forgetSql)
                .bind("after", after).bind("max", max).map((row, context) -> {
                    boolean reachedTheLast = row.getInt("looked_at") < max;
                    forgetAfter.compareAndSet(after, reachedTheLast ? 0 : row.getLong("last"));
                    return row.getInt("forgotten");
                }).one());
    }

    @Override
    public OutboxBacklog backlog(Instant now) {
        return withHandle("could not read the outbox's backlog", handle -> handle.createQuery(backlogSql)
                .map((row, context) -> {
                    Timestamp oldest = row.getTimestamp("oldest");
                    Duration age = oldest == null ? Duration.ZERO : Duration.between(oldest.toInstant(), now);
                    return new OutboxBacklog(row.getLong("waiting"), age.isNegative() ? Duration.ZERO : age,
                            row.getLong("malformed"));
                }).one());
    }

    @Override
    public synchronized void awaitNewRows(Duration timeout) throws InterruptedException {
        try {
            // 0 would wait forever
            listening().getNotifications((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        } catch (SQLException e) {
            closeListener();
            if (SqlFailures.isInterruption(e)) {
                throw new InterruptedException("interrupted while listening for outbox rows");
            }
            throw new LedgerUnavailableException("could not listen for outbox rows: " + e.getMessage(), e);
        }
    }

    private PGConnection listening() throws SQLException {
        if (listener == null) {
            Connection connection = listenerConnections.open();
            connection.setAutoCommit(true);
            try (Statement listen = connection.createStatement()) {
                listen.execute("LISTEN " + schema + "_outbox");
            }
            listener = connection;
        }
        return listener.unwrap(PGConnection.class);
    }

    synchronized void closeListener() {
        if (listener != null) {
            try {
                listener.close();
            } catch (SQLException e) {
                // it failed already: nothing is left to release
            }
            listener = null;
        }
    }

    private <T> T withHandle(String failure, HandleCallback<T, RuntimeException> callback) {
        try {
            return jdbi.withHandle(callback);
        } catch (JdbiException e) {
            throw unavailable(failure, e);
        }
    }
}
