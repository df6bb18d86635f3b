package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobLeases;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.QueueStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The record of suspects running isolated ({@link JobLeases#isolate}), as tests: kept per entry by the transport, seen
 * by whoever leases the entry next, and gone with the entry. See {@link TransportFixture} for the setup.
 */
public abstract class JobIsolationContract extends TransportFixture {

    @Test
    void aNewEntryHasNoIsolatedDeliveries() {
        publish("fresh");

        Delivery.Leased delivery = leased(single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()));

        assertThat(delivery.isolatedDeliveries()).isZero();
        assertThat(delivery.suspect()).isFalse();
        assertThat(administration().stats(queue).suspects()).isZero();
    }

    @Test
    void onlyTheHolderRecordsAnIsolatedDeliveryAndTheNextLeaseSeesIt() {
        publish("suspect");
        Delivery.Leased first = leased(single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()));

        assertThat(leases().isolate(first, bob)).as("bob does not hold it").isEmpty();
        assertThat(leases().isolate(first, alice)).hasValue(1);
        QueueStats stats = administration().stats(queue);
        assertThat(stats.suspects()).isEqualTo(1);
        assertThat(stats.isolatedDeliveries()).isEqualTo(1);

        elapse(MIN_IDLE);
        Delivery.Leased reclaimed = leased(single(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10)
                .deliveries()));
        assertThat(reclaimed.isolatedDeliveries()).isEqualTo(1);
        assertThat(reclaimed.suspect()).isTrue();
        assertThat(leases().isolate(reclaimed, alice)).as("alice lost it").isEmpty();
        assertThat(leases().isolate(reclaimed, bob)).hasValue(2);

        Delivery.Leased resumed = leased(single(maintenance().leaseOwnPending(queue, bob, 10)));
        assertThat(resumed.isolatedDeliveries()).isEqualTo(2);
        assertThat(resumed.deliveryCount()).isEqualTo(3);
        assertThat(administration().stats(queue).isolatedDeliveries()).isEqualTo(2);
    }

    @Test
    void acknowledgingRetryingOrDeadLetteringForgetsTheRecord() {
        publish("acked", "retried", "dead", "still-running");
        List<Delivery> held = leases().lease(queue, alice, 4, SHORT_BLOCK).deliveries();
        held.forEach(delivery -> assertThat(leases().isolate(leased(delivery), alice)).hasValue(1));

        leases().acknowledge(queue, List.of(held.get(0).id()));
        leases().retryLater(held.get(1), leased(held.get(1)).job().retriedAfter(ERROR, BASE));
        leases().deadLetter(held.get(2), DeadLetter.of(leased(held.get(2)).job(), DeadLetterReason.POISON, ERROR,
                2, BASE));

        assertThat(administration().stats(queue).suspects()).isEqualTo(1);
        maintenance().promoteDue(queue, BASE, 10);
        Delivery.Leased again = leased(single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()));
        assertThat(again.job().id().value()).isEqualTo("retried");
        assertThat(again.isolatedDeliveries()).isZero();
    }

    @Test
    void anEntryWhoseDataVanishedLeavesWithItsRecord() {
        publish("trimmed-away");
        Delivery.Leased delivery = leased(single(leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()));
        leases().isolate(delivery, alice);
        deleteFromStream(queue, delivery.id());

        elapse(MIN_IDLE);

        assertThat(maintenance().reclaimAbandoned(queue, bob, MIN_IDLE, 10).vanished()).containsExactly(
                delivery.id());
        assertThat(administration().stats(queue).suspects()).isZero();
    }
}
