package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.testing.InMemoryEffects;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The worker when workers crash, stop, lose their lease or their ledger on the in-memory adapters: no job is lost and
 * none runs twice.
 */
class WorkerRecoveryTest extends WorkerFixture {
    @Test
    void entriesOfACrashedConsumerAreReclaimedAfterTheLease() {
        handlers.put("orders", context -> {
            calls(context.consumer().value()).incrementAndGet();
            if (context.consumer().equals(ConsumerName.of("doomed-worker"))) {
                never.await();
            }
            return Optional.empty();
        });
        RunningWorker doomed = start("doomed-worker", 1);
        enqueue("survivor");
        await().atMost(WAIT).until(() -> doomed.counters().running() == 1);

        assertThat(doomed.stop(Duration.ZERO)).isEqualTo(1);
        assertThat(transport.stats(queue).pending()).isEqualTo(1);
        RunningWorker rescuer = start("rescuer", 1);
        clock.advance(PAST_LEASE);

        await().atMost(WAIT).until(() -> rescuer.counters().completed() == 1);
        assertThat(rescuer.counters().reclaimed()).isEqualTo(1);
        assertThat(ledger.find(queue, JobId.of("survivor"))).hasValueSatisfying(completion ->
                assertThat(completion.consumer()).isEqualTo(ConsumerName.of("rescuer")));
        assertThat(transport.stats(queue).pending()).isZero();
        assertThat(calls("rescuer")).hasValue(1);
    }

    @Test
    void aReclaimedSuspectRunsBeforeTheFetcherLeasesAgain() {
        AtomicLong leasesBeforeTheSuspectRan = new AtomicLong(-1);
        handlers.put("orders", context -> {
            if (context.consumer().equals(ConsumerName.of("doomed-worker"))) {
                never.await();
            }
            // a lease begun after the reclaim holds the slots the suspect waits for: on an idle queue, a second
            leasesBeforeTheSuspectRan.set(transport.leasesSinceLastReclaim());
            return Optional.empty();
        });
        RunningWorker doomed = start("doomed-worker", 1);
        enqueue("suspect");
        await().atMost(WAIT).until(() -> doomed.counters().running() == 1);
        doomed.stop(Duration.ZERO);
        RunningWorker rescuer = start("rescuer", 4);
        clock.advance(PAST_LEASE);

        await().atMost(WAIT).until(() -> rescuer.counters().completed() == 1);
        assertThat(rescuer.counters().reclaimed()).isEqualTo(1);
        assertThat(leasesBeforeTheSuspectRan).hasValue(0);
    }

    @Test
    void aConsumerResumesItsOwnPendingEntriesWhenItRestarts() {
        handlers.put("orders", counting("orders"));
        enqueue("held");
        transport.lease(queue, ConsumerName.of("w1"), 1, Duration.ZERO).deliveries();

        RunningWorker worker = start("w1", 1);

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().reclaimed()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aCompletedJobPublishedAgainIsAcknowledgedItsWritesRollBack() {
        handlers.put("orders", context -> {
            context.unwrap(InMemoryEffects.class).put("shipped-again", "yes");
            return Optional.empty();
        });
        complete("done-before");
        RunningWorker worker = start("w1", 1);

        enqueue("done-before");

        await().atMost(WAIT).until(() -> worker.counters().duplicates() == 1);
        assertThat(ledger.committedEffects()).doesNotContainKey("shipped-again");
        assertThat(worker.counters().completed()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Nested
    class WhenAnAcknowledgementIsLost {
        @Test
        void theCommitCompletesOnRedeliveryWithoutRunningTwice() {
            handlers.put("orders", context -> {
                calls("orders").incrementAndGet();
                context.unwrap(InMemoryEffects.class).increment("runs");
                return Optional.empty();
            });
            ledger.crashAfterNextCommit();
            RunningWorker worker = start("w1", 1);

            enqueue("lost-ack");

            await().atMost(WAIT).until(() -> ledger.find(queue, JobId.of("lost-ack")).isPresent()
                    && worker.counters().running() == 0);
            clock.advance(PAST_LEASE);
            await().atMost(WAIT).until(() -> worker.counters().duplicates() == 1);
            assertThat(ledger.committedEffects()).containsEntry("runs", "1");
            assertThat(calls("orders")).as("the redelivery is checked before its handler runs").hasValue(1);
            assertThat(worker.counters().reclaimed()).isEqualTo(1);
            assertThat(transport.stats(queue).pending()).isZero();
        }
    }

    @Test
    void anUnavailableLedgerLeavesTheJobPendingForRedelivery() {
        handlers.put("orders", counting("orders"));
        ledger.setUnavailable(true);
        RunningWorker worker = start("w1", 1);

        enqueue("patient");

        await().atMost(WAIT).until(() -> transport.find(queue, JobId.of("patient"))
                .filter(JobSighting.Pending.class::isInstance).isPresent() && worker.counters().running() == 0);
        assertThat(worker.counters().retried()).isZero();
        assertThat(transport.stats(queue).delayed()).isZero();
        ledger.setUnavailable(false);
        clock.advance(PAST_LEASE);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().reclaimed()).isEqualTo(1);
        assertThat(calls("orders")).hasValue(1);
    }

    @Test
    void gracefulStopFinishesWhatItCanAndLeavesTheRestPending() throws Exception {
        CountDownLatch releaseSlow = new CountDownLatch(1);
        handlers.put("orders", context -> {
            String id = context.job().id().value();
            calls(id).incrementAndGet();
            if (id.equals("slow")) {
                releaseSlow.await();
            } else if (id.equals("stuck")) {
                never.await();
            }
            context.unwrap(InMemoryEffects.class).put(id, "done");
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 3);
        List.of("quick", "slow", "stuck").forEach(this::enqueue);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1 && worker.counters().running() == 2);

        CompletableFuture<Integer> stopping = CompletableFuture.supplyAsync(() -> worker.stop(Duration.ofSeconds(1)));
        await().atMost(WAIT).until(() -> !worker.isRunning());
        releaseSlow.countDown();

        assertThat(stopping.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(worker.counters().completed()).isEqualTo(2);
        assertThat(ledger.committedEffects()).containsOnlyKeys("quick", "slow");
        assertThat(transport.find(queue, JobId.of("stuck"))).hasValueSatisfying(sighting ->
                assertThat(sighting).isInstanceOf(JobSighting.Pending.class));
        assertThat(transport.stats(queue).pending()).isEqualTo(1);
        assertThat(worker.stop(Duration.ZERO)).isEqualTo(1);
    }

    @Test
    void leaseExtensionKeepsASlowJobFromBeingStolen() {
        CountDownLatch release = new CountDownLatch(1);
        handlers.put("orders", context -> {
            release.await();
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);
        enqueue("slow");
        await().atMost(WAIT).until(() -> worker.counters().running() == 1);

        for (int i = 0; i < 3; i++) {
            clock.advance(LEASE.dividedBy(2));
            await().atMost(WAIT).until(() -> pendingIdle("slow").isZero());
        }
        clock.advance(LEASE.minusSeconds(1));
        Reclaimed stolen = transport.reclaimAbandoned(queue, ConsumerName.of("thief"), LEASE, 10);

        assertThat(stolen).isEqualTo(Reclaimed.NONE);
        release.countDown();
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.counters().leasesLost()).isZero();
        assertThat(transport.stats(queue).pending()).isZero();
    }

    @Test
    void aJobWhoseLeaseWasTakenIsNotAcknowledgedByTheWorkerThatLostIt() {
        CountDownLatch release = new CountDownLatch(1);
        handlers.put("orders", context -> {
            release.await();
            context.unwrap(InMemoryEffects.class).increment("runs");
            return Optional.empty();
        });
        RunningWorker worker = start("w1", 1);
        enqueue("contested");
        await().atMost(WAIT).until(() -> worker.counters().running() == 1);
        ConsumerName thief = ConsumerName.of("thief");

        // the worker extends its lease every 10 ms: move the clock and steal in between
        await().atMost(WAIT).until(() -> {
            clock.advance(PAST_LEASE);
            return !transport.reclaimAbandoned(queue, thief, LEASE, 1).deliveries().isEmpty();
        });
        await().atMost(WAIT).until(() -> worker.counters().leasesLost() == 1);
        release.countDown();
        await().atMost(WAIT).until(() -> worker.counters().running() == 0);

        assertThat(worker.counters().completed()).isZero();
        assertThat(ledger.committedEffects()).containsEntry("runs", "1");
        assertThat(transport.find(queue, JobId.of("contested"))).hasValueSatisfying(sighting ->
                assertThat(((JobSighting.Pending) sighting).consumer()).isEqualTo(thief.value()));
    }

    @Test
    void theWorkerSurvivesTransportFailures() {
        handlers.put("orders", counting("orders"));
        transport.failNextLeases(2);
        RunningWorker worker = start("w1", 1);

        enqueue("resilient");

        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        assertThat(worker.isRunning()).isTrue();
    }

    @Test
    void stopWithoutRunningJobsAbandonsNothing() {
        RunningWorker worker = start("w1", 4);

        assertThat(worker.stop(Duration.ofSeconds(1))).isZero();
        assertThat(worker.isRunning()).isFalse();
        assertThat(worker.counters().running()).isZero();
    }
}
