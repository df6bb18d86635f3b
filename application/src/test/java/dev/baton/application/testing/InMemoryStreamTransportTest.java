package dev.baton.application.testing;

import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** The transport contracts on the in-memory transport. */
class InMemoryStreamTransportTest extends TransportContracts {
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock, PAYLOAD_LIMIT);
    private final InMemoryScheduleFires scheduleFires = new InMemoryScheduleFires(transport);

    @Override
    public JobPublisher publisher() {
        return transport;
    }

    @Override
    public JobLeases leases() {
        return transport;
    }

    @Override
    public QueueMaintenance maintenance() {
        return transport;
    }

    @Override
    public QueueAdministration administration() {
        return transport;
    }

    @Override
    public DelayedJobActions delayedJobs() {
        return transport;
    }

    @Override
    public QueueOverview overview() {
        return transport;
    }

    @Override
    public ScheduleFires scheduleFires() {
        return scheduleFires;
    }

    @Override
    public void appendRaw(QueueName queue, Map<String, String> fields) {
        transport.appendRaw(queue, fields);
    }

    @Override
    public void deleteFromStream(QueueName queue, DeliveryId id) {
        transport.deleteEntry(queue, id);
    }

    @Override
    public void damageStream(QueueName queue) {
        transport.damageStream(queue);
    }

    @Override
    public void elapse(Duration duration) {
        clock.advance(duration);
    }
}
