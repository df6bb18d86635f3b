package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class LeaseExtensionLoopTest {
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final MutableClock clock = MutableClock.at(Deliveries.NOW);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final ConsumerName worker = ConsumerName.of("w1");
    private final ConsumerName thief = ConsumerName.of("thief");
    private final InFlight inFlight = new InFlight(4);
    private final CountingObserver counting = new CountingObserver(JobObserver.NONE, MaintenanceObserver.NONE);
    private final LeaseExtensionLoop extension = new LeaseExtensionLoop(transport, worker, inFlight, counting);

    @Test
    void anExtendedLeaseIsNotReclaimedByAnotherConsumerInAnyQueue() {
        QueueName emails = QueueName.of("emails");
        leaseAndHold(Deliveries.QUEUE, "slow-order");
        leaseAndHold(emails, "slow-email");
        clock.advance(LEASE.minusSeconds(1));

        assertThat(extension.runOnce()).isEqualTo(new LeaseExtensionLoop.Extended(2, 0));
        clock.advance(Duration.ofSeconds(2)); // a lease since the extension, not since the lease

        assertThat(transport.reclaimAbandoned(Deliveries.QUEUE, thief, LEASE, 10)).isEqualTo(Reclaimed.NONE);
        assertThat(transport.reclaimAbandoned(emails, thief, LEASE, 10)).isEqualTo(Reclaimed.NONE);
        assertThat(counting.counters(0, 0).leasesLost()).isZero();
    }

    @Nested
    class WhenAnotherConsumerTakesALease {
        @Test
        void itIsMarkedLostOnceAndItsOutcomeIsNotRecorded() {
            HeldDelivery held = leaseAndHold(Deliveries.QUEUE, "contested");
            clock.advance(LEASE.plusSeconds(1));
            assertThat(transport.reclaimAbandoned(Deliveries.QUEUE, thief, LEASE, 1).deliveries()).hasSize(1);

            assertThat(extension.runOnce()).isEqualTo(new LeaseExtensionLoop.Extended(0, 1));
            assertThat(extension.runOnce()).as("marked lost once").isEqualTo(new LeaseExtensionLoop.Extended(0, 0));

            assertThat(counting.counters(0, 0).leasesLost()).isEqualTo(1);
            assertThat(held.beginFinish()).isFalse();
            assertThat(transport.find(Deliveries.QUEUE, JobId.of("contested"))).hasValueSatisfying(sighting ->
                    assertThat(((JobSighting.Pending) sighting).consumer()).isEqualTo(thief.value()));
        }
    }

    private HeldDelivery leaseAndHold(QueueName queue, String jobId) {
        transport.publish(Job.create(JobId.of(jobId), queue, "{}", clock.instant()));
        List<Delivery> leased = transport.lease(queue, worker, 1, Duration.ZERO).deliveries();
        return inFlight.hold(leased.get(0)).orElseThrow();
    }
}
