package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.service.OutboxRelay;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

class OutboxRelayTest {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private static final OutboxRelay.Settings SETTINGS = new OutboxRelay.Settings(100, Duration.ofSeconds(30),
            Duration.ofSeconds(1));

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final RecordingPublisher publisher = new RecordingPublisher();
    private final AtomicReference<String> epoch = new AtomicReference<>("run-1/marker-1");
    private PostgresAdapter adapter;
    private OutboxRelay relay;

    @BeforeEach
    void open() {
        adapter = PostgresAdapter.open(SCHEMA.config(), clock);
        SCHEMA.jdbi().useHandle(handle -> handle.execute("DELETE FROM " + SCHEMA.name() + ".job_outbox"));
        relay = new OutboxRelay(adapter.jobOutbox(), publisher, adapter.outcomes(), epoch::get, PayloadLimit.DEFAULT,
                clock, SETTINGS);
    }

    @AfterEach
    void close() {
        adapter.close();
    }

    @Test
    void jobsArePublishedOnceInCommitOrderAndRolledBackOnesNever() {
        enqueue("a-1", true);
        enqueue("a-2", false);
        enqueue("a-3", true);

        assertThat(relay.runOnce()).isEqualTo(2);
        assertThat(relay.runOnce()).isZero();
        assertThat(publisher.jobIds()).containsExactly("a-1", "a-3");
        assertThat(column("(published_at IS NOT NULL)::text", "a-1")).isEqualTo("true");
    }

    /** The relay holds the batch the transport did not take, and publishes it first; no other relay claims it. */
    @Test
    void aBatchWhosePublishFailedIsPublishedAtItsRelaysNextPass() {
        enqueue("f-1", true);
        publisher.failNext = true;
        OutboxRelay other = new OutboxRelay(adapter.jobOutbox(), publisher, adapter.outcomes(), epoch::get,
                PayloadLimit.DEFAULT, clock, SETTINGS);

        assertThatThrownBy(relay::runOnce).isInstanceOf(TransportException.class);
        assertThat(other.runOnce()).as("still claimed").isZero();
        assertThat(relay.runOnce()).isOne();
        relay.runOnce();

        assertThat(publisher.jobIds()).containsExactly("f-1");
        assertThat(column("(published_at IS NOT NULL)::text", "f-1")).isEqualTo("true");
    }

    @Test
    void relaysSideBySideNeverClaimTheSameRow() {
        enqueue("s-1", true);
        enqueue("s-2", true);
        enqueue("s-3", true);
        JobOutbox outbox = adapter.jobOutbox();
        Instant now = clock.instant();

        List<JobOutbox.Entry> first = outbox.claim(2, now, now.plusSeconds(30));
        List<JobOutbox.Entry> second = outbox.claim(2, now, now.plusSeconds(30));

        assertThat(first).extracting(OutboxRelayTest::jobId).containsExactly("s-1", "s-2");
        assertThat(second).extracting(OutboxRelayTest::jobId).containsExactly("s-3");
    }

    /**
     * Rows written around the function (or that its checks let through: a job id of 200 characters beyond the Basic
     * Multilingual Plane is 400 Java chars) between good ones, in one batch: each bad row is marked MALFORMED with
     * its reason and never claimed again; every good row, before and after it, is published in order.
     */
    @Test
    void rowsThatAreNoJobsAreMarkedMalformedAndTheRestPublished() {
        Map<Long, String> bad = new LinkedHashMap<>();
        enqueue("m-ok-1", true);
        bad.put(insertRaw("'m-1'", "'no such queue!'", "'{}'", "NULL"), "queue name 'no such queue!' is invalid");
        enqueue("m-ok-2", true);
        bad.put(insertRaw("''", "'orders'", "'{}'", "NULL"), "job id must have 1..256 characters, got 0");
        bad.put(insertRaw("E'm\\nid'", "'orders'", "'{}'", "NULL"), "job id must be printable text");
        bad.put(insertRaw("repeat(U&'\\+01F600', 200)", "'orders'", "'{}'", "NULL"),
                "job id must have 1..256 characters, got 400");
        bad.put(insertRaw("'m-big'", "'orders'", "repeat('x', 1048577)", "NULL"),
                "payload over the limit of 1048576 bytes");
        bad.put(insertRaw("'m-type'", "'orders'", "'{}'", "' '"), "job type must be 1..200 printable characters");
        enqueue("m-ok-3", true);

        assertThat(relay.runOnce()).isEqualTo(bad.size() + 3);
        assertThat(relay.runOnce()).as("no row claimed again").isZero();
        assertThat(publisher.jobIds()).containsExactly("m-ok-1", "m-ok-2", "m-ok-3");
        bad.forEach((position, reason) -> assertThat(malformedAt(position)).as("row " + position).contains(reason));
        long noQueue = bad.keySet().iterator().next();
        assertThat(publisher.deadLetters).as("every row with a queue, dead-lettered MALFORMED with its raw values")
                .hasSize(bad.size() - 1).doesNotContainKey("outbox:" + noQueue)
                .allSatisfy((origin, letter) -> assertThat(letter.reason()).isEqualTo(DeadLetterReason.MALFORMED));
        long empty = bad.keySet().stream().skip(1).findFirst().orElseThrow();
        DeadLetter emptyId = publisher.deadLetters.get("outbox:" + empty);
        assertThat(emptyId.rawFields()).containsEntry("job_id", "").containsEntry("payload", "{}");
        assertThat(emptyId.lastError().message()).isEqualTo(bad.get(empty));
        long noQueueRecords = SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT count(*) FROM "
                + SCHEMA.name() + ".job_outcomes WHERE job_id = 'm-1'").mapTo(long.class).one());
        assertThat(noQueueRecords).as("no queue: in the outbox only").isZero();
        assertThat(adapter.outcomes().find(QueueName.of("orders"), "m-big")).get().isInstanceOf(JobOutcome.Dead.class);
        assertThat(adapter.outcomes().find(QueueName.of("orders"),
                DeadLetterRecord.entryKey(QueueName.of("orders"), "outbox:" + empty)))
                .as("a row without a job id, by its position").get().isInstanceOf(JobOutcome.Dead.class);
    }

    /** Rows written around the function (or before V12 checked them) are no jobs either: the Java checks hold. */
    @Test
    void rowsDueBeyondTheHorizonOrWithABadHeaderNameAreMalformed() {
        long infinite = insertRaw("d-inf", "due_at", "'infinity'");
        long far = insertRaw("d-far", "due_at", "'2036-12-01T10:00:01Z'");
        long latest = insertRaw("d-latest", "due_at", "'2036-12-01T10:00:00Z'");
        long noName = insertRaw("h-empty", "headers", "'{\"\": \"v\"}'");

        relay.runOnce();

        assertThat(publisher.jobIds()).containsExactly("d-latest");
        assertThat(malformedAt(latest)).isNull();
        assertThat(malformedAt(infinite)).startsWith("due time +292278994-").contains("more than 10 years");
        assertThat(malformedAt(far)).isEqualTo("due time 2036-12-01T10:00:01Z is more than 10 years (3653 days)"
                + " ahead: the latest allowed now is 2036-12-01T10:00:00Z");
        assertThat(malformedAt(noName)).startsWith("header name '' is invalid");
    }

    /**
     * A job the transport refuses (it checks a batch before sending any of it) is marked MALFORMED with the
     * transport's reason; the others of its batch are published, in order, and the relay goes on.
     */
    @Test
    void aJobTheTransportRefusesIsMarkedMalformedAndTheRestPublished() {
        enqueue("r-1", true);
        enqueue("r-refused", true);
        enqueue("r-2", true);
        publisher.refused = "r-refused";

        assertThat(relay.runOnce()).isEqualTo(3);
        assertThat(relay.runOnce()).as("no row claimed again").isZero();
        assertThat(publisher.jobIds()).containsExactly("r-1", "r-2");
        assertThat(column("malformed", "r-refused")).isEqualTo("the transport cannot carry r-refused");
        assertThat(column("(published_at IS NOT NULL)::text", "r-2")).isEqualTo("true");
    }

    @Test
    void aPublishedRowIsForgottenOnlyOnceItsJobHasATerminalOutcome() {
        enqueue("t-1", true);
        enqueue("t-2", true);
        relay.runOnce();
        completed("t-1");

        relay.runOnce();

        assertThat(column("count(*)::text", "t-1")).isEqualTo("0");
        assertThat(column("count(*)::text", "t-2")).isEqualTo("1");
    }

    /**
     * Each look reads a window of published rows after where the last one stopped, so that rows whose jobs have not
     * ended (delayed ones, say) are not read again by every look; after the last row it starts over at the first.
     */
    @Test
    void aLookAtEndedRowsReadsOnFromTheLastAndStartsOverAtTheEnd() {
        for (int i = 1; i <= 4; i++) {
            enqueue("w-" + i, true);
        }
        relay.runOnce();
        completed("w-2");
        completed("w-4");
        JobOutbox outbox = adapter.jobOutbox();

        assertThat(outbox.forgetEnded(2)).as("w-1 and w-2, of which w-1 runs still").isOne();
        assertThat(outbox.forgetEnded(2)).as("w-3 and w-4, after the window before").isOne();
        completed("w-1");
        assertThat(outbox.forgetEnded(2)).as("nothing after the last row").isZero();
        assertThat(outbox.forgetEnded(2)).as("w-1 and w-3, from the first again").isOne();

        assertThat(column("count(*)::text", "w-1")).isEqualTo("0");
        assertThat(column("count(*)::text", "w-3")).isEqualTo("1");
    }

    @Nested
    class AfterTheTransportLostData {
        @Test
        void everyPublishedJobWithoutATerminalOutcomeIsPublishedOnceMore() {
            enqueue("l-1", true);
            enqueue("l-2", true);
            relay.runOnce();
            completed("l-1");
            assertThat(relay.runOnce()).as("same epoch: nothing again").isZero();

            epoch.set("run-2/marker-2");
            OutboxRelay other = new OutboxRelay(adapter.jobOutbox(), publisher, adapter.outcomes(), epoch::get,
                    PayloadLimit.DEFAULT, clock, SETTINGS);
            assertThat(relay.runOnce()).isOne();
            assertThat(other.runOnce()).as("one relay republishes a loss").isZero();

            assertThat(publisher.jobIds()).containsExactly("l-1", "l-2", "l-2");
        }
    }

    @Test
    void aCommitWakesTheRelayWaitingForNewRows() throws Exception {
        JobOutbox outbox = adapter.jobOutbox();
        outbox.awaitNewRows(Duration.ofMillis(1)); // starts listening

        enqueue("w-1", true);
        CompletableFuture<Void> woken = CompletableFuture.runAsync(() -> {
            try {
                outbox.awaitNewRows(Duration.ofHours(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        woken.get(1, TimeUnit.MINUTES);
        assertThat(woken).isDone();
    }

    /**
     * While a relay is marked claiming, commits send no NOTIFY (they would queue behind each other); once it stopped,
     * they do. PostgreSQL delivers notifications in commit order, so the first one to arrive being the later commit's
     * proves the earlier commit sent none.
     */
    @Test
    void aCommitDuringAClaimWakesNobodyAndOneAfterItStoppedDoes() throws Exception {
        JobOutbox outbox = adapter.jobOutbox();
        try (Connection listener = connection(); Connection early = connection(); Connection late = connection()) {
            listener.createStatement().execute("LISTEN " + SCHEMA.name() + "_outbox");
            outbox.keepClaiming("relay-a", Duration.ofMinutes(1));
            commitOne(early, "n-1");

            assertThat(jobIds(stopClaiming(outbox, "relay-a"))).containsExactly("n-1");
            commitOne(late, "n-2");

            PGNotification[] arrived = new PGNotification[0];
            while (arrived.length == 0) {
                arrived = listener.unwrap(PGConnection.class).getNotifications(60_000);
            }
            assertThat(arrived[0].getPID()).isEqualTo(backendPid(late)).isNotEqualTo(backendPid(early));
        }
    }

    /**
     * A relay that stops claiming waits for the commits that found it claiming, so that its last claim sees their rows.
     * The producer here decides at its insert (SET CONSTRAINTS … IMMEDIATE) and holds its decision until it commits.
     */
    @Test
    void aRelayThatStopsClaimingWaitsForTheCommitThatFoundItClaiming() throws Exception {
        JobOutbox outbox = adapter.jobOutbox();
        outbox.keepClaiming("relay-b", Duration.ofMinutes(1));
        try (Connection producer = connection()) {
            producer.setAutoCommit(false);
            producer.createStatement().execute("SET CONSTRAINTS ALL IMMEDIATE");
            producer.createStatement().execute("SELECT " + SCHEMA.name() + ".enqueue('orders', 'held-1', '{}')");

            CompletableFuture<List<JobOutbox.Entry>> last = CompletableFuture.supplyAsync(
                    () -> stopClaiming(outbox, "relay-b"));
            await().atMost(Duration.ofMinutes(1)).until(() -> SCHEMA.jdbi().withHandle(handle -> handle.createQuery(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                    .mapTo(Integer.class).one()) == 1);
            assertThat(last).isNotDone();

            producer.commit();
            assertThat(jobIds(last.get(1, TimeUnit.MINUTES))).containsExactly("held-1");
        }
    }

    /** A relay that died claiming holds back no wake-up once its lease lapsed. */
    @Test
    void aLapsedMarkWakesTheRelaysAgain() throws Exception {
        adapter.jobOutbox().keepClaiming("relay-c", Duration.ofMillis(1));
        await().atMost(Duration.ofMinutes(1)).until(() -> SCHEMA.jdbi().withHandle(handle -> handle.createQuery(
                "SELECT count(*) FROM " + SCHEMA.name() + ".job_outbox_claiming WHERE until > clock_timestamp()")
                .mapTo(Integer.class).one()) == 0);
        try (Connection listener = connection(); Connection producer = connection()) {
            listener.createStatement().execute("LISTEN " + SCHEMA.name() + "_outbox");
            commitOne(producer, "lapsed-1");

            assertThat(listener.unwrap(PGConnection.class).getNotifications(60_000)).isNotEmpty();
        }
    }

    private List<JobOutbox.Entry> stopClaiming(JobOutbox outbox, String relayName) {
        Instant now = clock.instant();
        return outbox.stopClaimingAndClaim(relayName, List.of(), now, 100, now, now.plus(SETTINGS.claimLease()));
    }

    private static List<String> jobIds(List<JobOutbox.Entry> entries) {
        return entries.stream().map(entry -> ((JobOutbox.Entry.Ready) entry).job().id().value()).toList();
    }

    private static void commitOne(Connection producer, String jobId) throws SQLException {
        producer.createStatement().execute("SELECT " + SCHEMA.name() + ".enqueue('orders', '" + jobId + "', '{}')");
    }

    private static int backendPid(Connection connection) throws SQLException {
        try (ResultSet pid = connection.createStatement().executeQuery("SELECT pg_backend_pid()")) {
            pid.next();
            return pid.getInt(1);
        }
    }

    private static Connection connection() throws SQLException {
        return DriverManager.getConnection(SCHEMA.jdbcUrl());
    }

    private void enqueue(String jobId, boolean commit) {
        SCHEMA.jdbi().useHandle(handle -> {
            handle.begin();
            handle.execute("SELECT " + SCHEMA.name() + ".enqueue('orders', ?, '{}')", jobId);
            if (commit) {
                handle.commit();
            } else {
                handle.rollback();
            }
        });
    }

    private static void completed(String jobId) {
        SCHEMA.jdbi().useHandle(handle -> handle.execute("INSERT INTO " + SCHEMA.name() + ".job_outcomes (job_id,"
                + " queue, attempt, consumer, message_id, completed_at) VALUES (?, 'orders', 1, 'w', '1-0', now())",
                jobId));
    }

    /** Writes a row straight into the table, around the function's checks. @return its position */
    private static long insertRaw(String jobId, String queue, String payload, String type) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("INSERT INTO " + SCHEMA.name()
                + ".job_outbox (job_id, queue, payload, type) VALUES (" + jobId + ", " + queue + ", " + payload + ", "
                + type + ") RETURNING position").mapTo(Long.class).one());
    }

    /** Writes a row of queue {@code orders} straight into the table with one more column's value. */
    private static long insertRaw(String jobId, String column, String value) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("INSERT INTO " + SCHEMA.name()
                + ".job_outbox (job_id, queue, payload, " + column + ") VALUES (:id, 'orders', '{}', " + value
                + ") RETURNING position").bind("id", jobId).mapTo(Long.class).one());
    }

    private static String malformedAt(long position) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT malformed FROM " + SCHEMA.name()
                + ".job_outbox WHERE position = :position").bind("position", position).mapTo(String.class).one());
    }

    private static String column(String expression, String jobId) {
        return SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SELECT " + expression + " FROM "
                + SCHEMA.name() + ".job_outbox WHERE job_id = :id").bind("id", jobId).mapTo(String.class).one());
    }

    private static String jobId(JobOutbox.Entry entry) {
        return ((JobOutbox.Entry.Ready) entry).job().id().value();
    }

    private static final class RecordingPublisher implements JobPublisher {
        private final List<Job> published = new ArrayList<>();
        private final Map<String, DeadLetter> deadLetters = new LinkedHashMap<>();
        private boolean failNext;
        /** The id of a job this transport cannot carry, as Redis refuses a header named like a field of its own. */
        private String refused;

        @Override
        public void publish(Job job) {
            publishAll(List.of(job));
        }

        @Override
        public synchronized void publishAll(List<Job> jobs) {
            if (failNext) {
                failNext = false;
                throw new TransportException("Redis is down");
            }
            jobs.stream().filter(job -> job.id().value().equals(refused)).findAny().ifPresent(job -> {
                throw new InvalidValueException("the transport cannot carry " + refused);
            });
            published.addAll(jobs);
        }

        @Override
        public synchronized void deadLetterUnpublished(DeadLetter letter, String origin) {
            deadLetters.put(origin, letter);
        }

        /** The relay publishes no unique jobs: the outbox takes none. */
        @Override
        public JobId publishUnique(Job job) {
            throw new UnsupportedOperationException("the relay publishes no unique jobs");
        }

        synchronized List<String> jobIds() {
            return published.stream().map(job -> job.id().value()).toList();
        }
    }
}
