package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RecoveryTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final QueueName QUEUE = Deliveries.QUEUE;

    private final MutableClock clock = MutableClock.at(Deliveries.NOW);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final ConsumerName worker = ConsumerName.of("w1");
    private final ConsumerName dead = ConsumerName.of("dead");
    private final InFlight inFlight = new InFlight(4);
    private final List<HeldDelivery> dispatched = new ArrayList<>();
    private final AtomicInteger vanished = new AtomicInteger();
    private final CountingObserver counting = new CountingObserver(JobObserver.NONE, new MaintenanceObserver() {
        @Override
        public void vanished(QueueName queue, int count) {
            vanished.addAndGet(count);
        }
    });
    private final PausedQueues pauses = new PausedQueues(transport, List.of(QUEUE), worker);
    private final AtomicLong nanoTime = new AtomicLong();
    private final Suspects suspects = new Suspects(inFlight, transport, new InMemoryExecutionLedger(clock),
            DeliveryLimit.DEFAULT, clock, worker, counting);
    private final Recovery recovery = new Recovery(transport, List.of(QUEUE), worker, LEASE, suspects,
            new Dispatcher(inFlight, new CancelMarks(transport), 1, 1, Runnable::run,
                    dispatched::addAll, LeaseAhead.none()), pauses, counting, INTERVAL, nanoTime::get);

    @Test
    void onceDueAPassReclaimsOneSuspectIntoASlotTheFetcherHolds() {
        List<Delivery> abandoned = abandon(3);
        clock.advance(LEASE.plusSeconds(1));
        assertThat(recovery.runOnce(2)).as("not due before its interval").isEqualTo(Recovery.Recovered.NOTHING);

        intervalPasses();

        assertThat(recovery.runOnce(2)).isEqualTo(new Recovery.Recovered(1, 0));
        assertThat(dispatched).extracting(held -> held.delivery().id()).containsExactly(abandoned.get(0).id());
        assertThat(dispatched).allSatisfy(held -> assertThat(held.delivery().deliveryCount()).isEqualTo(2));
        assertThat(dispatched).allSatisfy(held -> assertThat(held.isSuspect()).isTrue());
        assertThat(pendingByConsumer()).containsEntry("w1", 1L).containsEntry("dead", 2L);
        assertThat(counting.counters(0, 0).reclaimed()).isEqualTo(1);
    }

    @Nested
    class WhileItHoldsASuspect {
        @Test
        void theWorkerReclaimsNothingAndTakesTheNextOnceItIsReleased() {
            List<Delivery> abandoned = abandon(2);
            clock.advance(LEASE.plusSeconds(1));
            intervalPasses();
            recovery.runOnce(4);

            assertThat(recovery.runOnce(4).reclaimed()).as("a suspect is held").isZero();
            assertThat(inFlight.suspects()).isEqualTo(1);

            inFlight.end(Ending.MOVED.ofAll(dispatched));

            assertThat(recovery.runOnce(4).reclaimed()).as("still due, within the interval").isEqualTo(1);
            assertThat(dispatched).extracting(held -> held.delivery().id())
                    .containsExactly(abandoned.get(0).id(), abandoned.get(1).id());
            inFlight.end(Ending.MOVED.ofAll(List.of(dispatched.get(1))));
            assertThat(recovery.runOnce(4).reclaimed()).as("nothing left: no longer due").isZero();
            intervalPasses();
            assertThat(recovery.runOnce(4).reclaimed()).isZero();
        }
    }

    @Test
    void entriesSilentForLessThanALeaseStayWithTheirConsumer() {
        abandon(1);
        clock.advance(LEASE.minusSeconds(1));

        intervalPasses();

        assertThat(recovery.runOnce(4).reclaimed()).isZero();
        assertThat(pendingByConsumer()).containsEntry("dead", 1L).doesNotContainKey("w1");
    }

    @Test
    void pendingEntriesWhoseDataVanishedAreDroppedAndReported() {
        Delivery gone = abandon(1).get(0);
        transport.deleteEntry(QUEUE, gone.id());
        clock.advance(LEASE.plusSeconds(1));

        intervalPasses();

        assertThat(recovery.runOnce(4)).isEqualTo(new Recovery.Recovered(0, 1));
        assertThat(vanished).hasValue(1);
        assertThat(transport.stats(QUEUE).pending()).isZero();
        assertThat(dispatched).isEmpty();
    }

    @Test
    void aPausedQueueIsNotReclaimedFromUntilItIsResumed() {
        abandon(2);
        clock.advance(LEASE.plusSeconds(1));
        transport.pause(QUEUE);
        pauses.refresh();

        intervalPasses();

        assertThat(recovery.runOnce(4).reclaimed()).isZero();
        assertThat(pendingByConsumer()).containsEntry("dead", 2L).doesNotContainKey("w1");

        transport.resume(QUEUE);
        pauses.refresh();
        intervalPasses();

        assertThat(recovery.runOnce(4).reclaimed()).as("one suspect at a time").isEqualTo(1);
    }

    private void intervalPasses() {
        nanoTime.addAndGet(INTERVAL.toNanos());
    }

    private List<Delivery> abandon(int count) {
        transport.publishAll(IntStream.range(0, count)
                .mapToObj(i -> Job.create(JobId.of("abandoned-" + i), QUEUE, "{}", clock.instant())).toList());
        return transport.lease(QUEUE, dead, count, Duration.ZERO).deliveries();
    }

    private Map<String, Long> pendingByConsumer() {
        return transport.stats(QUEUE).consumers().stream().filter(consumer -> consumer.pending() > 0)
                .collect(Collectors.toMap(ConsumerStats::name, ConsumerStats::pending));
    }
}
