package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The guarantees every {@link QueueMaintenance} gives, as tests; see {@link TransportFixture} for the setup. */
public abstract class QueueMaintenanceContract extends TransportFixture {

    private static final Instant FAR_PAST = Instant.parse("2000-01-01T00:00:00Z");
    private static final Instant FAR_FUTURE = Instant.parse("2999-01-01T00:00:00Z");

    private ExecutorService executor;
    private final List<ConsumerName> claimed = new ArrayList<>();

    @AfterEach
    void stopExecutor() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    @AfterEach
    void releaseClaims() {
        claimed.forEach(maintenance()::releaseConsumer);
    }

    // ---- reclaiming -------------------------------------------------------------------------------------------

    @Test
    void reclaimTakesOverIdleEntriesOldestFirstAndCountsDeliveries() {
        publish("r1", "r2", "r3");
        leases().lease(queue, alice, 3, SHORT_BLOCK).deliveries();
        assertThat(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10)).isEqualTo(Reclaimed.NONE);
        elapse(MIN_IDLE.plusMillis(100));

        Reclaimed firstTwo = maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 2);

        assertThat(jobIds(firstTwo.deliveries())).containsExactly("r1", "r2");
        assertThat(firstTwo.deliveries()).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(2));
        assertThat(firstTwo.vanished()).isEmpty();
        assertThat(ownedBy(bob)).isEqualTo(2);
        assertThat(ownedBy(alice)).isEqualTo(1);
        assertThat(jobIds(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()))
                .containsExactly("r3");
        assertThat(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10).deliveries()).isEmpty();
        assertThat(jobIds(maintenance().leaseOwnPending(queue, bob, 10))).containsExactly("r1", "r2", "r3");
    }

    @Test
    void reclaimReportsPendingEntriesWhoseDataVanished() {
        publish("kept", "deleted");
        List<Delivery> deliveries = leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
        deleteFromStream(queue, deliveries.get(1).id());
        elapse(MIN_IDLE.plusMillis(100));

        Reclaimed reclaimed = maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10);

        assertThat(jobIds(reclaimed.deliveries())).containsExactly("kept");
        assertThat(reclaimed.vanished()).containsExactly(deliveries.get(1).id());
        assertThat(administration().stats(queue).pending()).isEqualTo(1);
    }

    // ---- the delayed set --------------------------------------------------------------------------------------

    @Test
    void promoteDueMovesDueJobsInDueOrderAndAtMostMax() {
        publisher().publish(job("third").notBefore(BASE.plusSeconds(3 * 3600)));
        publisher().publish(job("first").notBefore(BASE.plusSeconds(3600)));
        publisher().publish(job("second").notBefore(BASE.plusSeconds(2 * 3600)));

        assertThat(maintenance().promoteDue(queue, BASE, 10)).isZero();
        assertThat(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()).isEmpty();
        assertThat(maintenance().promoteDue(queue, FAR_FUTURE, 1)).isEqualTo(1);
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("first");
        assertThat(maintenance().promoteDue(queue, FAR_FUTURE, 10)).isEqualTo(2);
        assertThat(maintenance().promoteDue(queue, FAR_FUTURE, 10)).isZero();
        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()))
                .containsExactly("second", "third");
        assertThat(administration().stats(queue).delayed()).isZero();
    }

    @Test
    void concurrentPromotersMoveEachDueJobExactlyOnce() throws Exception {
        int jobs = 40;
        publisher().publishAll(IntStream.range(0, jobs)
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
                for (int n = maintenance().promoteDue(queue, FAR_FUTURE, 3); n > 0;
                     n = maintenance().promoteDue(queue, FAR_FUTURE, 3)) {
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
        List<Delivery> all = leases().lease(queue, alice, 2 * jobs, SHORT_BLOCK).deliveries();
        assertThat(jobIds(all)).hasSize(jobs).doesNotHaveDuplicates();
        assertThat(administration().stats(queue).delayed()).isZero();
    }

    // ---- trimming and housekeeping ----------------------------------------------------------------------------

    @Test
    void trimNeverRemovesPendingOrUndeliveredEntries() {
        publish("acked-1", "acked-2", "pending");
        List<Delivery> leased = leases().lease(queue, alice, 3, SHORT_BLOCK).deliveries();
        leases().acknowledge(queue, ids(leased.subList(0, 2)));
        publish("waiting-1", "waiting-2");
        Retention retention = new Retention(Duration.ofMinutes(1));

        TrimOutcome heldByPending = maintenance().trim(queue, retention, FAR_FUTURE);

        assertThat(heldByPending.removed()).isEqualTo(2);
        assertThat(heldByPending.heldBack()).isTrue();
        assertThat(heldByPending.keptFrom()).containsExactly(leased.get(2).id());
        assertThat(administration().stats(queue).length()).isEqualTo(3);

        leases().acknowledge(queue, List.of(leased.get(2).id()));
        TrimOutcome heldByBacklog = maintenance().trim(queue, retention, FAR_FUTURE);

        assertThat(heldByBacklog.removed()).isEqualTo(1);
        assertThat(heldByBacklog.heldBack()).isTrue();
        List<Delivery> waiting = leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();
        assertThat(jobIds(waiting)).containsExactly("waiting-1", "waiting-2");

        leases().acknowledge(queue, ids(waiting));
        TrimOutcome free = maintenance().trim(queue, retention, FAR_FUTURE);

        assertThat(free.removed()).isEqualTo(2);
        assertThat(free.heldBack()).isFalse();
        assertThat(administration().stats(queue).length()).isZero();
    }

    @Test
    void trimKeepsHistoryYoungerThanTheRetention() {
        publish("recent");
        leases().acknowledge(queue, ids(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()));

        TrimOutcome outcome = maintenance().trim(queue, new Retention(Duration.ofDays(1)), FAR_PAST);

        assertThat(outcome.removed()).isZero();
        assertThat(outcome.heldBack()).isFalse();
        assertThat(administration().stats(queue).length()).isEqualTo(1);
    }

    @Test
    void removeIdleConsumersKeepsConsumersThatOwnPendingEntries() {
        publish("done", "held");
        leases().acknowledge(queue, ids(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()));
        leases().lease(queue, bob, 1, SHORT_BLOCK).deliveries();
        assertThat(maintenance().removeIdleConsumers(queue, MIN_IDLE)).isEmpty();
        elapse(MIN_IDLE.plusMillis(100));

        List<ConsumerName> removed = maintenance().removeIdleConsumers(queue, MIN_IDLE);

        assertThat(removed).containsExactly(alice);
        assertThat(administration().stats(queue).consumers()).extracting(ConsumerStats::name)
                .containsExactly(bob.value());
        assertThat(administration().stats(queue).pending()).isEqualTo(1);
    }

    // ---- consumer names ---------------------------------------------------------------------------------------

    @Test
    void aHeldNameIsNumberedForTheNextWorkerUntilReleased() {
        ConsumerName host = hostName();

        assertThat(claim(host)).isEqualTo(host);
        assertThat(claim(host)).isEqualTo(host.numbered(2));
        assertThat(claim(host)).isEqualTo(host.numbered(3));
        maintenance().releaseConsumer(host);
        maintenance().releaseConsumer(host.numbered(3));

        assertThat(claim(host)).isEqualTo(host);
        assertThat(claim(host)).isEqualTo(host.numbered(3));
        assertThat(claim(host.numbered(2))).isEqualTo(ConsumerName.of(host + "-2-2"));
    }

    @Test
    void removeStaleConsumersRemovesEarlierRunsOfTheNameOwningNothing() {
        ConsumerName host = hostName();
        ConsumerName oldPid = ConsumerName.of(host + "-48213");
        ConsumerName holding = ConsumerName.of(host + "-48214");
        ConsumerName numbered = host.numbered(3);
        ConsumerName otherName = ConsumerName.of(host + "-eu");
        assertThat(claim(host)).isEqualTo(host);
        assertThat(claim(host)).isEqualTo(host.numbered(2));
        publish("held");
        List<Delivery> held = leases().lease(queue, holding, 1, SHORT_BLOCK).deliveries();
        for (ConsumerName empty : List.of(host, host.numbered(2), numbered, oldPid, otherName, alice)) {
            publish("done-by-" + empty);
            leases().acknowledge(queue, ids(leases().lease(queue, empty, 1, SHORT_BLOCK).deliveries()));
        }

        List<ConsumerName> removed = maintenance().removeStaleConsumers(queue, host);

        assertThat(removed).containsExactlyInAnyOrder(oldPid, numbered);
        assertThat(consumerNames()).containsExactlyInAnyOrder(host.value(), host.numbered(2).value(),
                holding.value(), otherName.value(), alice.value());
        assertThat(administration().stats(queue).pending()).isEqualTo(1);

        leases().acknowledge(queue, ids(held));
        maintenance().releaseConsumer(host.numbered(2));

        assertThat(maintenance().removeStaleConsumers(queue, host))
                .containsExactlyInAnyOrder(holding, host.numbered(2));
        assertThat(consumerNames()).containsExactlyInAnyOrder(host.value(), otherName.value(), alice.value());
    }

    private ConsumerName claim(ConsumerName wanted) {
        ConsumerName name = maintenance().claimConsumer(wanted);
        claimed.add(name);
        return name;
    }

    /** A stable name no other test holds (claims are the transport's, not the queue's). */
    private static ConsumerName hostName() {
        return ConsumerName.of("host." + UUID.randomUUID().toString().substring(0, 8));
    }

    private List<String> consumerNames() {
        return administration().stats(queue).consumers().stream().map(ConsumerStats::name).toList();
    }
}
