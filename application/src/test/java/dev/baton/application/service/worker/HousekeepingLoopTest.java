package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class HousekeepingLoopTest {
    private static final QueueName QUEUE = Deliveries.QUEUE;
    private static final Retention RETENTION = new Retention(Duration.ofHours(1));
    private static final Duration IDLE_REMOVAL = Duration.ofMinutes(10);

    private final MutableClock clock = MutableClock.at(Deliveries.NOW);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final List<TrimOutcome> trims = new CopyOnWriteArrayList<>();
    private final HousekeepingLoop housekeeping = new HousekeepingLoop(transport, List.of(QUEUE), RETENTION,
            IDLE_REMOVAL, clock, new MaintenanceObserver() {
                @Override
                public void trimmed(QueueName queue, TrimOutcome outcome) {
                    trims.add(outcome);
                }
            });

    @Test
    void acknowledgedHistoryPastTheRetentionIsTrimmedNewerStays() {
        ConsumerName worker = ConsumerName.of("w1");
        publish("old-1");
        publish("old-2");
        List<Delivery> done = transport.lease(QUEUE, worker, 2, Duration.ZERO).deliveries();
        transport.acknowledge(QUEUE, done.stream().map(Delivery::id).toList());
        clock.advance(RETENTION.maxAge().plusMinutes(1));
        publish("fresh");

        assertThat(housekeeping.runOnce().entries()).isEqualTo(2);

        assertThat(transport.stats(QUEUE).length()).isEqualTo(1);
        assertThat(trims).containsExactly(new TrimOutcome(2, List.of()));
    }

    @Test
    void aConsumerIdleForLongIsRemovedUnlessItStillOwnsEntries() {
        publish("held");
        transport.lease(QUEUE, ConsumerName.of("holder"), 1, Duration.ZERO).deliveries();
        transport.lease(QUEUE, ConsumerName.of("ghost"), 1, Duration.ZERO).deliveries();
        clock.advance(IDLE_REMOVAL.plusMinutes(1));

        assertThat(housekeeping.runOnce().idleConsumers()).isEqualTo(1);

        assertThat(transport.stats(QUEUE).consumers()).extracting(ConsumerStats::name).containsExactly("holder");
    }

    private void publish(String id) {
        transport.publish(Job.create(JobId.of(id), QUEUE, "{}", clock.instant()));
    }
}
