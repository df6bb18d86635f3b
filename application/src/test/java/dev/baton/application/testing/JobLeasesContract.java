package dev.baton.application.testing;

import static dev.baton.application.testing.TestedTransport.PAYLOAD_LIMIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.AcknowledgedLease;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.Lease;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.ErrorTrace;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueStats;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The guarantees every {@link JobLeases} gives, as tests; see {@link TransportFixture} for the setup. */
public abstract class JobLeasesContract extends TransportFixture {

    // ---- leasing ----------------------------------------------------------------------------------------------

    @Test
    void declareIsIdempotentAndStartsEmpty() {
        leases().declare(queue);
        leases().declare(queue);

        QueueStats stats = administration().stats(queue);
        assertThat(stats.queue()).isEqualTo(queue);
        assertThat(stats.length()).isZero();
        assertThat(stats.pending()).isZero();
        assertThat(stats.delayed()).isZero();
        assertThat(stats.dead()).isZero();
    }

    @Test
    void leaseDeliversNewEntriesOldestFirstAndAtMostMax() {
        Job first = job("j-0").withType("email").withHeaders(Map.of("trace", "abc"));
        publisher().publish(first);
        IntStream.range(1, 5).forEach(i -> publisher().publish(job("j-" + i)));

        List<Delivery> firstBatch = leases().lease(queue, alice, 3, SHORT_BLOCK).deliveries();
        List<Delivery> secondBatch = leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();
        List<Delivery> nothing = leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();

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
        List<Delivery> deliveries = leases().lease(queue, alice, 5, Duration.ofMillis(200)).deliveries();
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(deliveries).isEmpty();
        assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(150)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void anInterruptedLeaseEndsItsReadLeavingLaterEntriesToOthers() throws InterruptedException {
        leases().declare(queue);
        AtomicReference<Lease> cutShort = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        CountDownLatch connected = new CountDownLatch(1);
        Thread stopping = new Thread(() -> {
            // a first read sets up what the thread reads with, so that the wait below is the blocking read's
            leases().lease(queue, alice, 5, SHORT_BLOCK);
            connected.countDown();
            cutShort.set(leases().lease(queue, alice, 5, Duration.ofSeconds(3)));
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        stopping.start();
        assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> stopping.getState() == Thread.State.TIMED_WAITING);

        stopping.interrupt();
        stopping.join();
        publish("after-the-stop");

        assertThat(cutShort.get()).isEqualTo(Lease.empty());
        assertThat(stillInterrupted).isTrue();
        assertThat(jobIds(leases().lease(queue, bob, 5, SHORT_BLOCK).deliveries())).containsExactly("after-the-stop");
        assertThat(maintenance().leaseOwnPending(queue, alice, 10)).isEmpty();
    }

    @Test
    void leaseOwnPendingRereadsOnlyItsOwnEntriesAndCountsADelivery() {
        publish("a1", "a2", "b1", "new");
        List<Delivery> ofAlice = leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
        leases().lease(queue, bob, 1, SHORT_BLOCK).deliveries();

        List<Delivery> again = maintenance().leaseOwnPending(queue, alice, 10);
        List<Delivery> oldestOnly = maintenance().leaseOwnPending(queue, alice, 1);

        assertThat(ids(again)).containsExactlyElementsOf(ids(ofAlice));
        assertThat(jobIds(again)).containsExactly("a1", "a2");
        assertThat(again).allSatisfy(delivery -> assertThat(delivery.deliveryCount()).isEqualTo(2));
        assertThat(jobIds(oldestOnly)).containsExactly("a1");
        assertThat(oldestOnly.get(0).deliveryCount()).isEqualTo(3);
        assertThat(jobIds(maintenance().leaseOwnPending(queue, bob, 10))).containsExactly("b1");
        assertThat(maintenance().leaseOwnPending(queue, ConsumerName.of("carol"), 10)).isEmpty();
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("new");
    }

    // ---- finishing --------------------------------------------------------------------------------------------

    @Test
    void acknowledgeRemovesFromPendingAndIgnoresRepeatsAndUnknownIds() {
        publish("a", "b");
        List<Delivery> deliveries = leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();

        leases().acknowledge(queue, List.of(deliveries.get(0).id()));
        leases().acknowledge(queue, List.of(deliveries.get(0).id(), new DeliveryId("1-1")));

        assertThat(administration().stats(queue).pending()).isEqualTo(1);
        assertThat(administration().find(queue, JobId.of("a"))).isEmpty();
        assertThat(jobIds(maintenance().leaseOwnPending(queue, alice, 10))).containsExactly("b");

        leases().acknowledge(queue, List.of(deliveries.get(1).id()));
        assertThat(administration().stats(queue).pending()).isZero();
        assertThat(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()).isEmpty();
    }

    @Nested
    class WhenAcknowledgingAndLeasing {
        @Test
        void itAcknowledgesThenLeasesWhatIsThereWithItsCancels() {
            publish("a", "b", "c", "d");
            List<Delivery> first = leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
            administration().cancel(queue, JobId.of("d"), Instant.parse("2026-12-01T00:00:00Z"));

            AcknowledgedLease next = leases().acknowledgeAndLease(queue,
                    List.of(first.get(0).id(), new DeliveryId("1-1")), alice, 10);

            assertThat(next.acknowledgementFailure()).isEmpty();
            assertThat(jobIds(next.lease().deliveries())).containsExactly("c", "d");
            assertThat(next.lease().cancelled()).containsExactly(JobId.of("d"));
            assertThat(administration().find(queue, JobId.of("a"))).isEmpty();
            assertThat(administration().stats(queue).pending()).isEqualTo(3);
        }

        @Test
        void onAnEmptyQueueItAcknowledgesAndReturnsWithoutWaiting() {
            publish("a");
            List<Delivery> leased = leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries();

            // nothing else publishes: a lease that waited for entries would end in a timeout, not with this answer
            AcknowledgedLease next = leases().acknowledgeAndLease(queue, ids(leased), alice, 10);

            assertThat(next.acknowledgementFailure()).isEmpty();
            assertThat(next.lease().isEmpty()).isTrue();
            assertThat(administration().stats(queue).pending()).isZero();
            assertThat(leases().acknowledgeAndLease(queue, List.of(), alice, 10).lease().isEmpty()).isTrue();
        }
    }

    @Test
    void retryLaterAcknowledgesAndDelaysInOneStep() {
        publish("flaky");
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        Job job = leased(delivery).job();
        Instant due = BASE.plusSeconds(3600);

        leases().retryLater(delivery, job.retriedAfter(ERROR, due));

        QueueStats stats = administration().stats(queue);
        assertThat(stats.pending()).isZero();
        assertThat(stats.delayed()).isEqualTo(1);
        assertThat(administration().find(queue, job.id())).hasValueSatisfying(sighting -> {
            assertThat(sighting).isInstanceOf(JobSighting.Delayed.class);
            assertThat(((JobSighting.Delayed) sighting).dueAt()).isEqualTo(due);
        });
        assertThat(maintenance().promoteDue(queue, due.minusSeconds(1), 10)).isZero();
        assertThat(maintenance().promoteDue(queue, due, 10)).isEqualTo(1);

        Job retried = leased(single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries())).job();
        assertThat(retried.id()).isEqualTo(job.id());
        assertThat(retried.payload()).isEqualTo(job.payload());
        assertThat(retried.attempt()).isEqualTo(1);
        assertThat(administration().stats(queue).delayed()).isZero();
    }

    @Test
    void deadLetterAcknowledgesAndKeepsTheLetterInOneStep() {
        publish("doomed");
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        Job job = leased(delivery).job();

        leases().deadLetter(delivery, DeadLetter.of(job, DeadLetterReason.EXHAUSTED, ERROR, 3, BASE));

        QueueStats stats = administration().stats(queue);
        assertThat(stats.pending()).isZero();
        assertThat(stats.dead()).isEqualTo(1);
        StoredDeadLetter stored = single(administration().deadLetters(queue, Optional.empty(), 10));
        assertThat(stored.letter().queue()).isEqualTo(queue);
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.EXHAUSTED);
        assertThat(stored.letter().attempts()).isEqualTo(3);
        assertThat(stored.letter().lastError().type()).isEqualTo(ERROR.type());
        assertThat(stored.letter().lastError().message()).isEqualTo(ERROR.message());
        assertThat(stored.letter().job()).hasValueSatisfying(dead -> {
            assertThat(dead.id()).isEqualTo(job.id());
            assertThat(dead.payload()).isEqualTo(job.payload());
        });
        assertThat(administration().find(queue, job.id())).hasValueSatisfying(sighting ->
                assertThat(sighting).isEqualTo(new JobSighting.Dead(stored)));
        assertThat(maintenance().leaseOwnPending(queue, alice, 10)).isEmpty();
    }

    @Test
    void aDeadLetterKeepsTheTraceOfTheExceptionThatEndedIt() {
        publish("traced");
        publish("untraced");
        List<Delivery> deliveries = leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
        ErrorTrace trace = ErrorTrace.of(new IllegalStateException("broken"));

        leases().deadLetter(deliveries.get(0), DeadLetter.of(leased(deliveries.get(0)).job(),
                DeadLetterReason.NON_RETRYABLE, ERROR, 1, BASE).withTrace(trace));
        leases().deadLetter(deliveries.get(1), DeadLetter.of(leased(deliveries.get(1)).job(),
                DeadLetterReason.EXHAUSTED, ERROR, 3, BASE));

        assertThat(administration().deadLetters(queue, Optional.empty(), 10))
                .extracting(stored -> stored.letter().trace())
                .containsExactly(Optional.of(trace), Optional.empty());
    }

    @Test
    void deadLetteringAJobTwiceKeepsTheFirstAndOnlyAcknowledges() {
        publish("twice");
        Delivery first = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        leases().deadLetter(first, DeadLetter.of(leased(first).job(), DeadLetterReason.EXHAUSTED, ERROR, 3, BASE));
        // the execution ledger says it is dead: Redis rolled back its group, say, and delivered it again
        publish("twice");
        Delivery second = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());

        leases().deadLetter(second, DeadLetter.of(leased(second).job(), DeadLetterReason.POISON, ERROR, 6, BASE));

        assertThat(single(administration().deadLetters(queue, Optional.empty(), 10)).letter().reason())
                .isEqualTo(DeadLetterReason.EXHAUSTED);
        assertThat(administration().stats(queue).pending()).isZero();
    }

    @Test
    void aRedrivenOrPurgedJobIsDeadLetteredAgainWhenItFailsAgain() {
        publish("again");
        deadLetterNext(DeadLetterReason.EXHAUSTED);
        administration().redrive(queue, new DeadLetterSelection.All());
        deadLetterNext(DeadLetterReason.NON_RETRYABLE);
        assertThat(single(administration().deadLetters(queue, Optional.empty(), 10)).letter().reason())
                .isEqualTo(DeadLetterReason.NON_RETRYABLE);

        administration().purgeDeadLetters(queue, new DeadLetterSelection.All());
        publish("again");
        deadLetterNext(DeadLetterReason.POISON);

        assertThat(single(administration().deadLetters(queue, Optional.empty(), 10)).letter().reason())
                .isEqualTo(DeadLetterReason.POISON);
    }

    private void deadLetterNext(DeadLetterReason reason) {
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        leases().deadLetter(delivery, DeadLetter.of(leased(delivery).job(), reason, ERROR, 1, BASE));
    }

    // ---- extending leases -------------------------------------------------------------------------------------

    @Test
    void extendLeasesKeepsARunningJobFromBeingReclaimed() {
        publish("slow");
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        elapse(MIN_IDLE.plusMillis(100));

        Set<DeliveryId> lost = leases().extendLeases(queue, alice, List.of(delivery.id()));

        assertThat(lost).isEmpty();
        assertThat(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()).isEmpty();
        assertThat(ownedBy(alice)).isEqualTo(1);
    }

    @Test
    void extendLeasesNeverStealsAndReportsWhatWasLost() {
        publish("contested", "finished");
        List<Delivery> deliveries = leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
        Delivery contested = deliveries.get(0);
        leases().acknowledge(queue, List.of(deliveries.get(1).id()));
        elapse(MIN_IDLE.plusMillis(100));
        assertThat(ids(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()))
                .containsExactly(contested.id());

        Set<DeliveryId> lost = leases().extendLeases(queue, alice,
                List.of(contested.id(), deliveries.get(1).id()));

        assertThat(lost).containsExactlyInAnyOrder(contested.id(), deliveries.get(1).id());
        assertThat(ownedBy(bob)).isEqualTo(1);
        assertThat(ownedBy(alice)).isZero();
        assertThat(leases().extendLeases(queue, bob, List.of(contested.id()))).isEmpty();
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

        List<Delivery> deliveries = leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();

        assertThat(deliveries).hasSize(5);
        for (int i = 0; i < bad.size(); i++) {
            assertThat(deliveries.get(i)).isInstanceOfSatisfying(Delivery.Malformed.class, malformed -> {
                assertThat(malformed.problem()).isNotBlank();
                assertThat(malformed.deliveryCount()).isEqualTo(1);
            });
            assertThat(((Delivery.Malformed) deliveries.get(i)).fields()).isEqualTo(bad.get(i));
        }
        assertThat(leased(deliveries.get(4)).job().id()).isEqualTo(JobId.of("good"));
        assertThat(administration().stats(queue).pending()).isEqualTo(5);
    }
}
