package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.Lease;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueListing;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.Retention;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The guarantees every {@link QueueAdministration} gives, as tests; see {@link TransportFixture} for the setup. */
public abstract class QueueAdministrationContract extends TransportFixture {

    // ---- dead letters -----------------------------------------------------------------------------------------

    @Test
    void deadLettersAreListedInDeathOrderAPageAtATime() {
        List<DeadLetterId> dead = deadLetter(DeadLetterReason.EXHAUSTED, "p0", "p1", "p2", "p3", "p4");

        List<StoredDeadLetter> first = administration().deadLetters(queue, Optional.empty(), 2);
        List<StoredDeadLetter> second = administration().deadLetters(queue, Optional.of(first.get(1).id()), 2);
        List<StoredDeadLetter> third = administration().deadLetters(queue, Optional.of(second.get(1).id()), 2);
        List<StoredDeadLetter> beyond = administration().deadLetters(queue, Optional.of(third.get(0).id()), 2);

        assertThat(letterJobIds(first)).containsExactly("p0", "p1");
        assertThat(letterJobIds(second)).containsExactly("p2", "p3");
        assertThat(letterJobIds(third)).containsExactly("p4");
        assertThat(beyond).isEmpty();
        assertThat(dead).hasSize(5).doesNotHaveDuplicates();
    }

    @Test
    void oneDeadLetterIsReadWholeByItsId() {
        List<DeadLetterId> dead = deadLetter(DeadLetterReason.EXHAUSTED, "w0", "w1", "w2");

        Optional<StoredDeadLetter> middle = administration().deadLetter(queue, dead.get(1));

        assertThat(middle).contains(administration().deadLetters(queue, Optional.empty(), 3).get(1));
        assertThat(middle.orElseThrow().letter().jobId()).contains("w1");
        administration().purgeDeadLetters(queue, new DeadLetterSelection.ByIds(List.of(dead.get(1))));
        assertThat(administration().deadLetter(queue, dead.get(1))).as("purged").isEmpty();
        assertThat(administration().deadLetter(queue, DeadLetterId.of("no-such-id"))).isEmpty();
    }

    @Test
    void redriveMovesSelectedLettersBackWithAttemptsReset() {
        publish("tired");
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        Job tired = leased(delivery).job().retriedAfter(ERROR, BASE).retriedAfter(ERROR, BASE);
        leases().deadLetter(delivery, DeadLetter.of(tired, DeadLetterReason.EXHAUSTED, ERROR, 3, BASE));
        List<DeadLetterId> others = deadLetter(DeadLetterReason.NON_RETRYABLE, "other");
        DeadLetterId tiredId = administration().deadLetters(queue, Optional.empty(), 10).get(0).id();

        int moved = administration().redrive(queue, new DeadLetterSelection.ByIds(List.of(tiredId)));

        assertThat(moved).isEqualTo(1);
        Job redriven = leased(single(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).job();
        assertThat(redriven.id()).isEqualTo(tired.id());
        assertThat(redriven.attempt()).isZero();
        assertThat(administration().deadLetters(queue, Optional.empty(), 10)).extracting(StoredDeadLetter::id)
                .containsExactlyElementsOf(others);
    }

    @Test
    void redriveByReasonAndAll() {
        deadLetter(DeadLetterReason.EXHAUSTED, "e1", "e2");
        deadLetter(DeadLetterReason.POISON, "p1");

        assertThat(administration().redrive(queue, new DeadLetterSelection.ByReason(DeadLetterReason.EXHAUSTED)))
                .isEqualTo(2);
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("e1", "e2");
        assertThat(administration().redrive(queue, new DeadLetterSelection.ByReason(DeadLetterReason.EXHAUSTED)))
                .isZero();
        assertThat(administration().redrive(queue, new DeadLetterSelection.All())).isEqualTo(1);
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("p1");
        assertThat(administration().stats(queue).dead()).isZero();
    }

    @Test
    void purgeDeletesSelectedLettersForGood() {
        List<DeadLetterId> ids = deadLetter(DeadLetterReason.EXHAUSTED, "x1", "x2", "x3");
        deadLetter(DeadLetterReason.NON_RETRYABLE, "n1", "n2");

        assertThat(administration().purgeDeadLetters(queue, new DeadLetterSelection.ByIds(List.of(ids.get(1)))))
                .isEqualTo(1);
        assertThat(administration().purgeDeadLetters(queue,
                new DeadLetterSelection.ByReason(DeadLetterReason.NON_RETRYABLE))).isEqualTo(2);
        assertThat(letterJobIds(administration().deadLetters(queue, Optional.empty(), 10))).containsExactly("x1", "x3");
        assertThat(administration().purgeDeadLetters(queue, new DeadLetterSelection.All())).isEqualTo(2);
        assertThat(administration().stats(queue).dead()).isZero();
        assertThat(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()).isEmpty();
    }

    @Test
    void malformedDeadLettersKeepTheirFieldsAndRedriveVerbatim() {
        Map<String, String> fields = Map.of("job_id", "broken", "attempt", "-x");
        appendRaw(queue, fields);
        Delivery.Malformed malformed =
                (Delivery.Malformed) single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());

        leases().deadLetter(malformed, DeadLetter.malformed(queue, malformed.fields(), malformed.problem(), BASE));

        StoredDeadLetter stored = single(administration().deadLetters(queue, Optional.empty(), 10));
        assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.MALFORMED);
        assertThat(stored.letter().job()).isEmpty();
        assertThat(stored.letter().rawFields()).isEqualTo(fields);
        assertThat(stored.letter().jobId()).contains("broken");
        assertThat(administration().redrive(queue, new DeadLetterSelection.All())).isEqualTo(1);
        assertThat(single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()))
                .isInstanceOfSatisfying(Delivery.Malformed.class, again ->
                        assertThat(again.fields()).isEqualTo(fields));
    }

    // ---- observing --------------------------------------------------------------------------------------------

    @Test
    void statsCountTheQueue() {
        publish("s1", "s2", "s3", "s4", "s5");
        List<Delivery> leased = leases().lease(queue, alice, 3, SHORT_BLOCK).deliveries();
        leases().acknowledge(queue, List.of(leased.get(0).id()));
        publisher().publish(job("later").notBefore(BASE));
        elapse(MIN_IDLE.plusMillis(100));

        QueueStats stats = administration().stats(queue);

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

        leases().deadLetter(leased.get(1),
                DeadLetter.of(leased(leased.get(1)).job(), DeadLetterReason.POISON, ERROR, 6, BASE));
        assertThat(administration().stats(queue).dead()).isEqualTo(1);
        assertThat(administration().stats(queue).pending()).isEqualTo(1);
    }

    @Test
    void totalsCountWhatFinishedOnceEachAndOtherQueuesApart() {
        QueueName untouched = randomQueue();
        publish("done-1", "done-2", "retried", "dead");
        List<Delivery> leased = leases().lease(queue, alice, 4, SHORT_BLOCK).deliveries();
        leases().acknowledge(queue, ids(leased.subList(0, 2)));
        leases().acknowledge(queue, ids(leased.subList(0, 2)));
        leases().retryLater(leased.get(2), leased(leased.get(2)).job().retriedAfter(ERROR, BASE));
        leases().retryLater(leased.get(2), leased(leased.get(2)).job().retriedAfter(ERROR, BASE));
        leases().deadLetter(leased.get(3),
                DeadLetter.of(leased(leased.get(3)).job(), DeadLetterReason.POISON, ERROR, 6, BASE));

        Map<QueueName, QueueTotals> totals = overview().totals(List.of(queue, untouched));

        assertThat(totals).containsOnlyKeys(queue, untouched);
        assertThat(totals.get(queue)).isEqualTo(new QueueTotals(queue, 2, 1, 1));
        assertThat(totals.get(untouched)).isEqualTo(QueueTotals.none(untouched));
    }

    @Test
    void findTellsWhereAJobIsHeld() {
        publish("leased", "waiting");
        Delivery delivery = single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());

        assertThat(administration().find(queue, JobId.of("leased"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOfSatisfying(JobSighting.Pending.class, pending -> {
                    assertThat(pending.messageId()).isEqualTo(delivery.id().value());
                    assertThat(pending.consumer()).isEqualTo(alice.value());
                    assertThat(pending.deliveries()).isEqualTo(1);
                    assertThat(pending.job().id()).isEqualTo(JobId.of("leased"));
                }));
        assertThat(administration().find(queue, JobId.of("waiting"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOfSatisfying(JobSighting.Waiting.class, waiting ->
                        assertThat(waiting.job().id()).isEqualTo(JobId.of("waiting"))));
        assertThat(administration().find(queue, JobId.of("nobody"))).isEmpty();
        assertThat(administration().find(randomQueue(), JobId.of("leased"))).isEmpty();
    }

    @Test
    void theDelayedJobsAreListedSoonestDueFirst() {
        publisher().publish(job("late").notBefore(BASE.plusSeconds(60)));
        publisher().publish(job("soon").notBefore(BASE.plusSeconds(10)));
        publisher().publish(job("middle").notBefore(BASE.plusSeconds(30)));

        List<JobSighting.Delayed> first = overview().delayed(queue, 2);

        assertThat(first).extracting(delayed -> delayed.job().id().value()).containsExactly("soon", "middle");
        assertThat(first.get(0).dueAt()).isEqualTo(BASE.plusSeconds(10));
        assertThat(overview().delayed(queue, 10)).hasSize(3);
        assertThat(overview().delayed(randomQueue(), 10)).isEmpty();
    }

    @Test
    void theQueuesHoldingJobsAreListed() {
        publish("q1");

        assertThat(overview().queues().names()).contains(queue).doesNotHaveDuplicates();
        assertThat(overview().queues().damaged()).doesNotContainKey(queue);
    }

    @Test
    void aQueueWhoseStreamHoldsSomethingElseIsListedAsDamaged() {
        QueueName healthy = randomQueue();
        try {
            leases().declare(healthy);
            subject().damageStream(queue);

            QueueListing listing = overview().queues();

            assertThat(listing.names()).contains(healthy).doesNotContain(queue);
            assertThat(listing.damaged()).hasEntrySatisfying(queue, problem -> assertThat(problem).contains("stream"));
            assertThatThrownBy(() -> administration().stats(queue)).isInstanceOf(TransportException.class);
            assertThat(administration().stats(healthy).length()).isZero();
        } finally {
            subject().forget(healthy);
        }
    }

    @Test
    void partitionStatsAreNoneForOnePartitionOrAddUpToTheQueues() {
        publish("p1", "p2", "p3");
        leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries();

        List<PartitionStats> partitions = overview().partitionStats(queue);

        if (!partitions.isEmpty()) {
            assertThat(partitions).hasSizeGreaterThan(1);
            assertThat(partitions).extracting(PartitionStats::index).doesNotHaveDuplicates();
            assertThat(partitions.stream().mapToLong(PartitionStats::length).sum()).isEqualTo(3);
            assertThat(partitions.stream().mapToLong(PartitionStats::pending).sum()).isEqualTo(1);
        }
    }

    // ---- pausing ----------------------------------------------------------------------------------------------

    @Test
    void aPausedQueueIsSeenPausedUntilResumedAndStillTakesJobs() {
        QueueName other = randomQueue();
        leases().declare(other);

        administration().pause(queue);
        administration().pause(queue);
        publish("while-paused");

        assertThat(leases().paused(List.of(queue, other))).containsExactly(queue);
        assertThat(administration().stats(queue).paused()).isTrue();
        assertThat(administration().stats(queue).length()).isEqualTo(1);
        assertThat(administration().stats(other).paused()).isFalse();

        administration().resume(queue);
        administration().resume(queue);

        assertThat(leases().paused(List.of(queue, other))).isEmpty();
        assertThat(administration().stats(queue).paused()).isFalse();
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("while-paused");
        subject().forget(other);
    }

    // ---- cancelling --------------------------------------------------------------------------------------------

    @Test
    void aCancelIsRecordedOnceSeenByItsQueueOnlyAndLaterForgotten() {
        QueueName other = randomQueue();
        leases().declare(other);
        JobId waiting = JobId.of("waiting");
        JobId unknown = JobId.of("never-enqueued");
        publish("waiting", "running");

        assertThat(administration().cancel(queue, waiting, BASE)).isTrue();
        assertThat(administration().cancel(queue, waiting, BASE.plusSeconds(1))).as("cancelled already").isFalse();
        assertThat(administration().cancel(queue, unknown, BASE.plusSeconds(10))).isTrue();

        assertThat(leases().cancelled(queue, List.of(waiting, JobId.of("running"), unknown)))
                .containsExactlyInAnyOrder(waiting, unknown);
        assertThat(leases().cancelled(other, List.of(waiting, unknown))).isEmpty();
        assertThat(leases().cancelled(queue, List.of())).isEmpty();

        maintenance().trim(queue, new Retention(Duration.ofSeconds(5)), BASE.plusSeconds(6));

        assertThat(leases().cancelled(queue, List.of(waiting, unknown))).containsExactly(unknown);
        subject().forget(other);
    }

    @Test
    void aLeaseTellsWhichOfItsJobsAreCancelled() {
        publish("first");
        Lease none = leases().lease(queue, alice, 10, SHORT_BLOCK);
        assertThat(jobIds(none.deliveries())).containsExactly("first");
        assertThat(none.cancelled()).as("a queue without cancels").isEmpty();

        publish("cancelled", "kept");
        administration().cancel(queue, JobId.of("cancelled"), BASE);
        administration().cancel(queue, JobId.of("not-leased"), BASE);
        Lease some = leases().lease(queue, alice, 10, SHORT_BLOCK);

        assertThat(jobIds(some.deliveries())).containsExactly("cancelled", "kept");
        assertThat(some.cancelled()).containsExactly(JobId.of("cancelled"));
        assertThat(leases().lease(queue, alice, 10, SHORT_BLOCK).isEmpty()).as("nothing left, cancels or not").isTrue();
    }

    // ---- delayed jobs -----------------------------------------------------------------------------------------

    @Test
    void aDelayedJobMadeDueIsPromotedOnTheNextPass() {
        publisher().publish(job("later").notBefore(BASE.plusSeconds(3600)));
        publisher().publish(job("other").notBefore(BASE.plusSeconds(3600)));

        assertThat(delayedJobs().makeDue(queue, JobId.of("later"), BASE)).isTrue();

        assertThat(maintenance().promoteDue(queue, BASE, 10)).isEqualTo(1);
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("later");
        assertThat(administration().find(queue, JobId.of("other"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOf(JobSighting.Delayed.class));
        assertThat(delayedJobs().makeDue(queue, JobId.of("later"), BASE)).as("running now").isFalse();
    }

    @Test
    void onlyADelayedJobIsMadeDueAndAnEarlierTimeIsKept() {
        publisher().publish(job("soon").notBefore(BASE.plusSeconds(10)));
        publish("waiting");

        assertThat(delayedJobs().makeDue(queue, JobId.of("soon"), BASE.plusSeconds(60))).isTrue();
        assertThat(delayedJobs().makeDue(queue, JobId.of("waiting"), BASE)).isFalse();
        assertThat(delayedJobs().makeDue(queue, JobId.of("nobody"), BASE)).isFalse();
        assertThat(delayedJobs().makeDue(randomQueue(), JobId.of("soon"), BASE)).isFalse();

        assertThat(single(overview().delayed(queue, 10)).dueAt()).isEqualTo(BASE.plusSeconds(10));
    }

    @Test
    void aRemovedDelayedJobNeverRuns() {
        publisher().publish(job("removed").notBefore(BASE.plusSeconds(60)));
        publisher().publish(job("kept").notBefore(BASE.plusSeconds(60)));
        publish("waiting");

        assertThat(delayedJobs().removeDelayed(queue, JobId.of("removed"))).isTrue();
        assertThat(delayedJobs().removeDelayed(queue, JobId.of("removed"))).as("gone already").isFalse();
        assertThat(delayedJobs().removeDelayed(queue, JobId.of("waiting"))).isFalse();

        assertThat(administration().find(queue, JobId.of("removed"))).isEmpty();
        assertThat(administration().stats(queue).delayed()).isEqualTo(1);
        maintenance().promoteDue(queue, BASE.plusSeconds(60), 10);
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()))
                .containsExactlyInAnyOrder("waiting", "kept");
    }

    /** Publishes, leases and dead-letters one job per id. @return the dead letters' ids, in order */
    private List<DeadLetterId> deadLetter(DeadLetterReason reason, String... ids) {
        publish(ids);
        for (Delivery delivery : leases().lease(queue, alice, ids.length, SHORT_BLOCK).deliveries()) {
            leases().deadLetter(delivery, DeadLetter.of(leased(delivery).job(), reason, ERROR.asPermanent(), 1,
                    BASE));
        }
        List<StoredDeadLetter> all = administration().deadLetters(queue, Optional.empty(), 10_000);
        return all.subList(all.size() - ids.length, all.size()).stream().map(StoredDeadLetter::id).toList();
    }

    private static List<String> letterJobIds(List<StoredDeadLetter> letters) {
        return letters.stream().map(stored -> stored.letter().jobId().orElseThrow()).toList();
    }
}
