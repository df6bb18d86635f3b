package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The guarantees every {@link StreamTransport} gives, as tests. An adapter test extends this class and provides the
 * transport and a few hooks. Every test works on its own randomly named queue, so the suite can run against a shared
 * server. Idle thresholds stay at most {@link #MIN_IDLE} and {@link #elapse} waits a little longer, so a real server
 * only needs real time to pass.
 */
public abstract class StreamTransportContract {

    /** Build the transport under test with this payload limit: the malformed-entry test relies on it. */
    protected static final PayloadLimit PAYLOAD_LIMIT = new PayloadLimit(4096);
    /**
     * The idle threshold the suite uses for reclaiming and consumer removal. Long enough that a loaded CI machine
     * never lets a freshly reclaimed entry go idle again between two calls of one test.
     */
    protected static final Duration MIN_IDLE = Duration.ofSeconds(1);

    private static final Duration SHORT_BLOCK = Duration.ofMillis(50);
    private static final Instant BASE = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant FAR_PAST = Instant.parse("2000-01-01T00:00:00Z");
    private static final Instant FAR_FUTURE = Instant.parse("2999-01-01T00:00:00Z");
    private static final JobError ERROR = JobError.retryable("java.io.IOException", "connection reset");

    protected final ConsumerName alice = ConsumerName.of("alice");
    protected final ConsumerName bob = ConsumerName.of("bob");
    protected final QueueName queue = randomQueue();

    /** The transport under test (the same instance for the whole test). */
    protected abstract StreamTransport transport();

    /** Appends an entry with exactly these fields to the queue's stream, bypassing the job mapping. */
    protected abstract void appendRaw(QueueName queue, Map<String, String> fields);

    /** Deletes an entry's data from the stream but leaves it pending, like {@code XDEL}. */
    protected abstract void deleteFromStream(QueueName queue, DeliveryId id);

    /** Lets at least {@code duration} pass for the transport's idle times (a fake clock moves; a server waits). */
    protected abstract void elapse(Duration duration);

    protected static QueueName randomQueue() {
        return QueueName.of("contract-" + UUID.randomUUID().toString().substring(0, 13));
    }

    @BeforeEach
    void declareQueue() {
        transport().declare(queue);
    }

    private ExecutorService executor;

    @AfterEach
    void stopExecutor() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    // ---- publishing and leasing -------------------------------------------------------------------------------

    @Test
    void declareIsIdempotentAndStartsEmpty() {
        transport().declare(queue);
        transport().declare(queue);

        QueueStats stats = transport().stats(queue);
        assertThat(stats.queue()).isEqualTo(queue);
        assertThat(stats.length()).isZero();
        assertThat(stats.pending()).isZero();
        assertThat(stats.delayed()).isZero();
        assertThat(stats.dead()).isZero();
    }

    @Test
    void leaseDeliversNewEntriesOldestFirstAndAtMostMax() {
        Job first = job("j-0").withType("email").withHeaders(Map.of("trace", "abc"));
        transport().publish(first);
        IntStream.range(1, 5).forEach(i -> transport().publish(job("j-" + i)));

        List<Delivery> firstBatch = transport().lease(queue, alice, 3, SHORT_BLOCK);
        List<Delivery> secondBatch = transport().lease(queue, alice, 10, SHORT_BLOCK);
        List<Delivery> nothing = transport().lease(queue, alice, 10, SHORT_BLOCK);

        assertThat(jobIds(firstBatch)).containsExactly("j-0", "j-1", "j-2");
        assertThat(jobIds(secondBatch)).containsExactly("j-3", "j-4");
        assertThat(nothing).isEmpty();
        assertThat(firstBatch).allSatisfy(delivery -> {
            assertThat(delivery.queue()).isEqualTo(queue);
            assertThat(delivery.deliveryCount()).isEqualTo(1);
        });
        Job leased = leased(firstBatch.get(0)).job();
        assertThat(leased.id()).isEqualTo(first.id());
        assertThat(leased.queue()).isEqualTo(queue);
        assertThat(leased.payload()).isEqualTo(first.payload());
        assertThat(leased.type()).contains("email");
        assertThat(leased.headers()).isEqualTo(Map.of("trace", "abc"));
        assertThat(leased.attempt()).isZero();
        assertThat(leased.enqueuedAt()).isEqualTo(first.enqueuedAt());
        assertThat(ids(firstBatch)).doesNotHaveDuplicates();
    }

    @Test
    void leaseWaitsUpToBlockWhenNothingIsThere() {
        long start = System.nanoTime();
        List<Delivery> deliveries = transport().lease(queue, alice, 5, Duration.ofMillis(200));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(deliveries).isEmpty();
        assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(150)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void blockedLeaseReturnsAJobPublishedWhileItWaits() throws Exception {
        CompletableFuture<List<Delivery>> waiting =
                CompletableFuture.supplyAsync(() -> transport().lease(queue, alice, 5, Duration.ofSeconds(10)));

        transport().publish(job("late"));

        assertThat(jobIds(waiting.get(8, TimeUnit.SECONDS))).containsExactly("late");
    }

    @Test
    void publishAllKeepsOrderAndDelaysJobsWithNotBefore() {
        transport().publishAll(List.of(job("a"), job("b").notBefore(BASE.plusSeconds(3600)), job("c")));

        assertThat(jobIds(transport().lease(queue, alice, 10, SHORT_BLOCK))).containsExactly("a", "c");
        assertThat(transport().stats(queue).delayed()).isEqualTo(1);
    }

    @Test
    void leaseOwnPendingRereadsOnlyTheConsumersOwnEntriesAndCountsADelivery() {
        publish("a1", "a2", "b1", "new");
        List<Delivery> ofAlice = transport().lease(queue, alice, 2, SHORT_BLOCK);
        transport().lease(queue, bob, 1, SHORT_BLOCK);

        List<Delivery> again = transport().leaseOwnPending(queue, alice, 10);
        List<Delivery> oldestOnly = transport().leaseOwnPending(queue, alice, 1);

        assertThat(ids(again)).containsExactlyElementsOf(ids(ofAlice));
        assertThat(jobIds(again)).containsExactly("a1", "a2");
        assertThat(again).allSatisfy(delivery -> assertThat(delivery.deliveryCount()).isEqualTo(2));
        assertThat(jobIds(oldestOnly)).containsExactly("a1");
        assertThat(oldestOnly.get(0).deliveryCount()).isEqualTo(3);
        assertThat(jobIds(transport().leaseOwnPending(queue, bob, 10))).containsExactly("b1");
        assertThat(transport().leaseOwnPending(queue, ConsumerName.of("carol"), 10)).isEmpty();
        assertThat(jobIds(transport().lease(queue, alice, 10, SHORT_BLOCK))).containsExactly("new");
    }

    // ---- finishing --------------------------------------------------------------------------------------------

    @Test
    void acknowledgeRemovesFromPendingAndIgnoresRepeatsAndUnknownIds() {
        publish("a", "b");
        List<Delivery> deliveries = transport().lease(queue, alice, 2, SHORT_BLOCK);

        transport().acknowledge(queue, List.of(deliveries.get(0).id()));
        transport().acknowledge(queue, List.of(deliveries.get(0).id(), new DeliveryId("1-1")));

        assertThat(transport().stats(queue).pending()).isEqualTo(1);
        assertThat(transport().find(queue, JobId.of("a"))).isEmpty();
        assertThat(jobIds(transport().leaseOwnPending(queue, alice, 10))).containsExactly("b");

        transport().acknowledge(queue, List.of(deliveries.get(1).id()));
        assertThat(transport().stats(queue).pending()).isZero();
        assertThat(transport().lease(queue, alice, 10, SHORT_BLOCK)).isEmpty();
    }

    @Test
    void retryLaterAcknowledgesAndDelaysInOneStep() {
        publish("flaky");
        Delivery delivery = single(transport().lease(queue, alice, 1, SHORT_BLOCK));
        Job job = leased(delivery).job();
        Instant due = BASE.plusSeconds(3600);

        transport().retryLater(delivery, job.retriedAfter(ERROR, due));

        QueueStats stats = transport().stats(queue);
        assertThat(stats.pending()).isZero();
        assertThat(stats.delayed()).isEqualTo(1);
        assertThat(transport().find(queue, job.id())).hasValueSatisfying(sighting -> {
            assertThat(sighting).isInstanceOf(JobSighting.Delayed.class);
            assertThat(((JobSighting.Delayed) sighting).dueAt()).isEqualTo(due);
        });
        assertThat(transport().promoteDue(queue, due.minusSeconds(1), 10)).isZero();
        assertThat(transport().promoteDue(queue, due, 10)).isEqualTo(1);

        Job retried = leased(single(transport().lease(queue, alice, 1, SHORT_BLOCK))).job();
        assertThat(retried.id()).isEqualTo(job.id());
        assertThat(retried.payload()).isEqualTo(job.payload());
        assertThat(retried.attempt()).isEqualTo(1);
        assertThat(transport().stats(queue).delayed()).isZero();
    }

    @Test
    void deadLetterAcknowledgesAndKeepsTheLetterInOneStep() {
        publish("doomed");
        Delivery delivery = single(transport().lease(queue, alice, 1, SHORT_BLOCK));
        Job job = leased(delivery).job();

        transport().deadLetter(delivery, DeadLetter.of(job, DeadLetterReason.EXHAUSTED, ERROR, 3, BASE));

        QueueStats stats = transport().stats(queue);
        assertThat(stats.pending()).isZero();
        assertThat(stats.dead()).isEqualTo(1);
        StoredDeadLetter stored = single(transport().deadLetters(queue, Optional.empty(), 10));
        assertThat(stored.letter().queue()).isEqualTo(queue);
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.EXHAUSTED);
        assertThat(stored.letter().attempts()).isEqualTo(3);
        assertThat(stored.letter().lastError().type()).isEqualTo(ERROR.type());
        assertThat(stored.letter().lastError().message()).isEqualTo(ERROR.message());
        assertThat(stored.letter().job()).hasValueSatisfying(dead -> {
            assertThat(dead.id()).isEqualTo(job.id());
            assertThat(dead.payload()).isEqualTo(job.payload());
        });
        assertThat(transport().find(queue, job.id())).hasValueSatisfying(sighting ->
                assertThat(sighting).isEqualTo(new JobSighting.Dead(stored)));
        assertThat(transport().leaseOwnPending(queue, alice, 10)).isEmpty();
    }

    // ---- leases -----------------------------------------------------------------------------------------------

    @Test
    void extendLeasesKeepsARunningJobFromBeingReclaimed() {
        publish("slow");
        Delivery delivery = single(transport().lease(queue, alice, 1, SHORT_BLOCK));
        elapse(MIN_IDLE.plusMillis(100));

        Set<DeliveryId> lost = transport().extendLeases(queue, alice, List.of(delivery.id()));

        assertThat(lost).isEmpty();
        assertThat(transport().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()).isEmpty();
        assertThat(ownedBy(alice)).isEqualTo(1);
    }

    @Test
    void extendLeasesNeverStealsAndReportsWhatWasLost() {
        publish("contested", "finished");
        List<Delivery> deliveries = transport().lease(queue, alice, 2, SHORT_BLOCK);
        Delivery contested = deliveries.get(0);
        transport().acknowledge(queue, List.of(deliveries.get(1).id()));
        elapse(MIN_IDLE.plusMillis(100));
        assertThat(ids(transport().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()))
                .containsExactly(contested.id());

        Set<DeliveryId> lost = transport().extendLeases(queue, alice,
                List.of(contested.id(), deliveries.get(1).id()));

        assertThat(lost).containsExactlyInAnyOrder(contested.id(), deliveries.get(1).id());
        assertThat(ownedBy(bob)).isEqualTo(1);
        assertThat(ownedBy(alice)).isZero();
        assertThat(transport().extendLeases(queue, bob, List.of(contested.id()))).isEmpty();
    }

    @Test
    void reclaimTakesOverIdleEntriesOldestFirstAndCountsDeliveries() {
        publish("r1", "r2", "r3");
        transport().lease(queue, alice, 3, SHORT_BLOCK);
        assertThat(transport().reclaimAbandoned(queue, bob, MIN_IDLE, 10)).isEqualTo(Reclaimed.NONE);
        elapse(MIN_IDLE.plusMillis(100));

        Reclaimed firstTwo = transport().reclaimAbandoned(queue, bob, MIN_IDLE, 2);

        assertThat(jobIds(firstTwo.deliveries())).containsExactly("r1", "r2");
        assertThat(firstTwo.deliveries()).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(2));
        assertThat(firstTwo.vanished()).isEmpty();
        assertThat(ownedBy(bob)).isEqualTo(2);
        assertThat(ownedBy(alice)).isEqualTo(1);
        assertThat(jobIds(transport().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()))
                .containsExactly("r3");
        assertThat(transport().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()).isEmpty();
        assertThat(jobIds(transport().leaseOwnPending(queue, bob, 10))).containsExactly("r1", "r2", "r3");
    }

    @Test
    void reclaimReportsPendingEntriesWhoseDataVanished() {
        publish("kept", "deleted");
        List<Delivery> deliveries = transport().lease(queue, alice, 2, SHORT_BLOCK);
        deleteFromStream(queue, deliveries.get(1).id());
        elapse(MIN_IDLE.plusMillis(100));

        Reclaimed reclaimed = transport().reclaimAbandoned(queue, bob, MIN_IDLE, 10);

        assertThat(jobIds(reclaimed.deliveries())).containsExactly("kept");
        assertThat(reclaimed.vanished()).containsExactly(deliveries.get(1).id());
        assertThat(transport().stats(queue).pending()).isEqualTo(1);
    }

    // ---- the delayed set --------------------------------------------------------------------------------------

    @Test
    void promoteDueMovesDueJobsInDueOrderAndAtMostMax() {
        transport().publish(job("third").notBefore(BASE.plusSeconds(3 * 3600)));
        transport().publish(job("first").notBefore(BASE.plusSeconds(3600)));
        transport().publish(job("second").notBefore(BASE.plusSeconds(2 * 3600)));

        assertThat(transport().promoteDue(queue, BASE, 10)).isZero();
        assertThat(transport().lease(queue, alice, 10, SHORT_BLOCK)).isEmpty();
        assertThat(transport().promoteDue(queue, FAR_FUTURE, 1)).isEqualTo(1);
        assertThat(jobIds(transport().lease(queue, alice, 10, SHORT_BLOCK))).containsExactly("first");
        assertThat(transport().promoteDue(queue, FAR_FUTURE, 10)).isEqualTo(2);
        assertThat(transport().promoteDue(queue, FAR_FUTURE, 10)).isZero();
        assertThat(jobIds(transport().lease(queue, alice, 10, SHORT_BLOCK))).containsExactly("second", "third");
        assertThat(transport().stats(queue).delayed()).isZero();
    }

    @Test
    void concurrentPromotersMoveEachDueJobExactlyOnce() throws Exception {
        int jobs = 40;
        transport().publishAll(IntStream.range(0, jobs)
                .mapToObj(i -> job("d-" + i).notBefore(BASE.plusMillis(i)))
                .toList());
        int promoters = 4;
        executor = Executors.newFixedThreadPool(promoters);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> moved = new ArrayList<>();
        for (int i = 0; i < promoters; i++) {
            moved.add(executor.submit(() -> {
                start.await();
                int total = 0;
                for (int n = transport().promoteDue(queue, FAR_FUTURE, 3); n > 0;
                     n = transport().promoteDue(queue, FAR_FUTURE, 3)) {
                    total += n;
                }
                return total;
            }));
        }
        start.countDown();
        int total = 0;
        for (Future<Integer> future : moved) {
            total += future.get(30, TimeUnit.SECONDS);
        }

        assertThat(total).isEqualTo(jobs);
        List<Delivery> all = transport().lease(queue, alice, 2 * jobs, SHORT_BLOCK);
        assertThat(jobIds(all)).hasSize(jobs).doesNotHaveDuplicates();
        assertThat(transport().stats(queue).delayed()).isZero();
    }

    // ---- trimming and housekeeping ----------------------------------------------------------------------------

    @Test
    void trimNeverRemovesPendingOrUndeliveredEntries() {
        publish("acked-1", "acked-2", "pending");
        List<Delivery> leased = transport().lease(queue, alice, 3, SHORT_BLOCK);
        transport().acknowledge(queue, ids(leased.subList(0, 2)));
        publish("waiting-1", "waiting-2");
        Retention retention = new Retention(Duration.ofMinutes(1));

        TrimOutcome heldByPending = transport().trim(queue, retention, FAR_FUTURE);

        assertThat(heldByPending.removed()).isEqualTo(2);
        assertThat(heldByPending.heldBack()).isTrue();
        assertThat(heldByPending.keptFrom()).containsExactly(leased.get(2).id());
        assertThat(transport().stats(queue).length()).isEqualTo(3);

        transport().acknowledge(queue, List.of(leased.get(2).id()));
        TrimOutcome heldByBacklog = transport().trim(queue, retention, FAR_FUTURE);

        assertThat(heldByBacklog.removed()).isEqualTo(1);
        assertThat(heldByBacklog.heldBack()).isTrue();
        List<Delivery> waiting = transport().lease(queue, alice, 10, SHORT_BLOCK);
        assertThat(jobIds(waiting)).containsExactly("waiting-1", "waiting-2");

        transport().acknowledge(queue, ids(waiting));
        TrimOutcome free = transport().trim(queue, retention, FAR_FUTURE);

        assertThat(free.removed()).isEqualTo(2);
        assertThat(free.heldBack()).isFalse();
        assertThat(transport().stats(queue).length()).isZero();
    }

    @Test
    void trimKeepsHistoryYoungerThanTheRetention() {
        publish("recent");
        transport().acknowledge(queue, ids(transport().lease(queue, alice, 1, SHORT_BLOCK)));

        TrimOutcome outcome = transport().trim(queue, new Retention(Duration.ofDays(1)), FAR_PAST);

        assertThat(outcome.removed()).isZero();
        assertThat(outcome.heldBack()).isFalse();
        assertThat(transport().stats(queue).length()).isEqualTo(1);
    }

    @Test
    void removeIdleConsumersKeepsConsumersThatOwnPendingEntries() {
        publish("done", "held");
        transport().acknowledge(queue, ids(transport().lease(queue, alice, 1, SHORT_BLOCK)));
        transport().lease(queue, bob, 1, SHORT_BLOCK);
        assertThat(transport().removeIdleConsumers(queue, MIN_IDLE)).isEmpty();
        elapse(MIN_IDLE.plusMillis(100));

        List<ConsumerName> removed = transport().removeIdleConsumers(queue, MIN_IDLE);

        assertThat(removed).containsExactly(alice);
        assertThat(transport().stats(queue).consumers()).extracting(ConsumerStats::name)
                .containsExactly(bob.value());
        assertThat(transport().stats(queue).pending()).isEqualTo(1);
    }

    // ---- dead letters -----------------------------------------------------------------------------------------

    @Test
    void deadLettersAreListedInDeathOrderAPageAtATime() {
        List<DeadLetterId> dead = deadLetter(DeadLetterReason.EXHAUSTED, "p0", "p1", "p2", "p3", "p4");

        List<StoredDeadLetter> first = transport().deadLetters(queue, Optional.empty(), 2);
        List<StoredDeadLetter> second = transport().deadLetters(queue, Optional.of(first.get(1).id()), 2);
        List<StoredDeadLetter> third = transport().deadLetters(queue, Optional.of(second.get(1).id()), 2);
        List<StoredDeadLetter> beyond = transport().deadLetters(queue, Optional.of(third.get(0).id()), 2);

        assertThat(letterJobIds(first)).containsExactly("p0", "p1");
        assertThat(letterJobIds(second)).containsExactly("p2", "p3");
        assertThat(letterJobIds(third)).containsExactly("p4");
        assertThat(beyond).isEmpty();
        assertThat(dead).hasSize(5).doesNotHaveDuplicates();
    }

    @Test
    void redriveMovesSelectedLettersBackWithAttemptsReset() {
        publish("tired");
        Delivery delivery = single(transport().lease(queue, alice, 1, SHORT_BLOCK));
        Job tired = leased(delivery).job().retriedAfter(ERROR, BASE).retriedAfter(ERROR, BASE);
        transport().deadLetter(delivery, DeadLetter.of(tired, DeadLetterReason.EXHAUSTED, ERROR, 3, BASE));
        List<DeadLetterId> others = deadLetter(DeadLetterReason.NON_RETRYABLE, "other");
        DeadLetterId tiredId = transport().deadLetters(queue, Optional.empty(), 10).get(0).id();

        int moved = transport().redrive(queue, new DeadLetterSelection.ByIds(List.of(tiredId)));

        assertThat(moved).isEqualTo(1);
        Job redriven = leased(single(transport().lease(queue, alice, 10, SHORT_BLOCK))).job();
        assertThat(redriven.id()).isEqualTo(tired.id());
        assertThat(redriven.attempt()).isZero();
        assertThat(transport().deadLetters(queue, Optional.empty(), 10)).extracting(StoredDeadLetter::id)
                .containsExactlyElementsOf(others);
    }

    @Test
    void redriveByReasonAndAll() {
        deadLetter(DeadLetterReason.EXHAUSTED, "e1", "e2");
        deadLetter(DeadLetterReason.POISON, "p1");

        assertThat(transport().redrive(queue, new DeadLetterSelection.ByReason(DeadLetterReason.EXHAUSTED)))
                .isEqualTo(2);
        assertThat(jobIds(transport().lease(queue, alice, 10, SHORT_BLOCK))).containsExactly("e1", "e2");
        assertThat(transport().redrive(queue, new DeadLetterSelection.ByReason(DeadLetterReason.EXHAUSTED)))
                .isZero();
        assertThat(transport().redrive(queue, new DeadLetterSelection.All())).isEqualTo(1);
        assertThat(jobIds(transport().lease(queue, alice, 10, SHORT_BLOCK))).containsExactly("p1");
        assertThat(transport().stats(queue).dead()).isZero();
    }

    @Test
    void purgeDeletesSelectedLettersForGood() {
        List<DeadLetterId> ids = deadLetter(DeadLetterReason.EXHAUSTED, "x1", "x2", "x3");
        deadLetter(DeadLetterReason.NON_RETRYABLE, "n1", "n2");

        assertThat(transport().purgeDeadLetters(queue, new DeadLetterSelection.ByIds(List.of(ids.get(1)))))
                .isEqualTo(1);
        assertThat(transport().purgeDeadLetters(queue,
                new DeadLetterSelection.ByReason(DeadLetterReason.NON_RETRYABLE))).isEqualTo(2);
        assertThat(letterJobIds(transport().deadLetters(queue, Optional.empty(), 10))).containsExactly("x1", "x3");
        assertThat(transport().purgeDeadLetters(queue, new DeadLetterSelection.All())).isEqualTo(2);
        assertThat(transport().stats(queue).dead()).isZero();
        assertThat(transport().lease(queue, alice, 10, SHORT_BLOCK)).isEmpty();
    }

    // ---- malformed entries ------------------------------------------------------------------------------------

    @Test
    void malformedEntriesAreLeasedAsMalformedWithTheirFieldsVerbatim() {
        List<Map<String, String>> bad = List.of(
                Map.of("payload", "{}", "attempt", "0", "enqueued_at", "1700000000000"),
                Map.of("job_id", "no-payload", "attempt", "0", "enqueued_at", "1700000000000"),
                Map.of("job_id", "bad-attempt", "payload", "{}", "attempt", "often",
                        "enqueued_at", "1700000000000"),
                Map.of("job_id", "too-big", "payload", "x".repeat(PAYLOAD_LIMIT.maxBytes() + 1), "attempt", "0",
                        "enqueued_at", "1700000000000"));
        bad.forEach(fields -> appendRaw(queue, fields));
        publish("good");

        List<Delivery> deliveries = transport().lease(queue, alice, 10, SHORT_BLOCK);

        assertThat(deliveries).hasSize(5);
        for (int i = 0; i < bad.size(); i++) {
            assertThat(deliveries.get(i)).isInstanceOfSatisfying(Delivery.Malformed.class, malformed -> {
                assertThat(malformed.problem()).isNotBlank();
                assertThat(malformed.deliveryCount()).isEqualTo(1);
            });
            assertThat(((Delivery.Malformed) deliveries.get(i)).fields()).isEqualTo(bad.get(i));
        }
        assertThat(leased(deliveries.get(4)).job().id()).isEqualTo(JobId.of("good"));
        assertThat(transport().stats(queue).pending()).isEqualTo(5);
    }

    @Test
    void malformedDeadLettersKeepTheirFieldsAndRedriveVerbatim() {
        Map<String, String> fields = Map.of("job_id", "broken", "attempt", "-x");
        appendRaw(queue, fields);
        Delivery.Malformed malformed = (Delivery.Malformed) single(transport().lease(queue, alice, 1, SHORT_BLOCK));

        transport().deadLetter(malformed, DeadLetter.malformed(queue, malformed.fields(), malformed.problem(), BASE));

        StoredDeadLetter stored = single(transport().deadLetters(queue, Optional.empty(), 10));
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.MALFORMED);
        assertThat(stored.letter().job()).isEmpty();
        assertThat(stored.letter().rawFields()).isEqualTo(fields);
        assertThat(stored.letter().jobId()).contains("broken");
        assertThat(transport().redrive(queue, new DeadLetterSelection.All())).isEqualTo(1);
        assertThat(single(transport().lease(queue, alice, 1, SHORT_BLOCK)))
                .isInstanceOfSatisfying(Delivery.Malformed.class, again ->
                        assertThat(again.fields()).isEqualTo(fields));
    }

    // ---- observing --------------------------------------------------------------------------------------------

    @Test
    void statsCountTheQueue() {
        publish("s1", "s2", "s3", "s4", "s5");
        List<Delivery> leased = transport().lease(queue, alice, 3, SHORT_BLOCK);
        transport().acknowledge(queue, List.of(leased.get(0).id()));
        transport().publish(job("later").notBefore(BASE));
        elapse(MIN_IDLE.plusMillis(100));

        QueueStats stats = transport().stats(queue);

        assertThat(stats.length()).isEqualTo(5);
        assertThat(stats.pending()).isEqualTo(2);
        if (stats.lag().isPresent()) {
            assertThat(stats.lag().getAsLong()).isEqualTo(2);
        }
        assertThat(stats.oldestPendingIdle()).isGreaterThanOrEqualTo(MIN_IDLE);
        assertThat(stats.consumers()).singleElement().satisfies(consumer -> {
            assertThat(consumer.name()).isEqualTo(alice.value());
            assertThat(consumer.pending()).isEqualTo(2);
            assertThat(consumer.idle()).isGreaterThanOrEqualTo(MIN_IDLE);
        });
        assertThat(stats.delayed()).isEqualTo(1);

        transport().deadLetter(leased.get(1),
                DeadLetter.of(leased(leased.get(1)).job(), DeadLetterReason.POISON, ERROR, 6, BASE));
        assertThat(transport().stats(queue).dead()).isEqualTo(1);
        assertThat(transport().stats(queue).pending()).isEqualTo(1);
    }

    @Test
    void findTellsWhereAJobIsHeld() {
        publish("leased", "waiting");
        Delivery delivery = single(transport().lease(queue, alice, 1, SHORT_BLOCK));

        assertThat(transport().find(queue, JobId.of("leased"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOfSatisfying(JobSighting.Pending.class, pending -> {
                    assertThat(pending.messageId()).isEqualTo(delivery.id().value());
                    assertThat(pending.consumer()).isEqualTo(alice.value());
                    assertThat(pending.deliveries()).isEqualTo(1);
                    assertThat(pending.job().id()).isEqualTo(JobId.of("leased"));
                }));
        assertThat(transport().find(queue, JobId.of("waiting"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOfSatisfying(JobSighting.Waiting.class, waiting ->
                        assertThat(waiting.job().id()).isEqualTo(JobId.of("waiting"))));
        assertThat(transport().find(queue, JobId.of("nobody"))).isEmpty();
        assertThat(transport().find(randomQueue(), JobId.of("leased"))).isEmpty();
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    protected Job job(String id) {
        return Job.create(JobId.of(id), queue, "{\"id\":\"" + id + "\"}", Instant.ofEpochMilli(1_900_000_000_123L));
    }

    private void publish(String... ids) {
        for (String id : ids) {
            transport().publish(job(id));
        }
    }

    /** Publishes, leases and dead-letters one job per id. @return the dead letters' ids, in order */
    private List<DeadLetterId> deadLetter(DeadLetterReason reason, String... ids) {
        publish(ids);
        for (Delivery delivery : transport().lease(queue, alice, ids.length, SHORT_BLOCK)) {
            transport().deadLetter(delivery, DeadLetter.of(leased(delivery).job(), reason, ERROR.asPermanent(), 1,
                    BASE));
        }
        List<StoredDeadLetter> all = transport().deadLetters(queue, Optional.empty(), 10_000);
        return all.subList(all.size() - ids.length, all.size()).stream().map(StoredDeadLetter::id).toList();
    }

    private long ownedBy(ConsumerName consumer) {
        return transport().stats(queue).consumers().stream()
                .filter(stats -> stats.name().equals(consumer.value()))
                .mapToLong(ConsumerStats::pending)
                .sum();
    }

    protected static Delivery.Leased leased(Delivery delivery) {
        assertThat(delivery).isInstanceOf(Delivery.Leased.class);
        return (Delivery.Leased) delivery;
    }

    private static <T> T single(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }

    protected static List<String> jobIds(List<Delivery> deliveries) {
        return deliveries.stream().map(d -> leased(d).job().id().value()).toList();
    }

    private static List<String> letterJobIds(List<StoredDeadLetter> letters) {
        return letters.stream().map(stored -> stored.letter().jobId().orElseThrow()).toList();
    }

    protected static List<DeliveryId> ids(List<Delivery> deliveries) {
        return deliveries.stream().map(Delivery::id).toList();
    }
}
