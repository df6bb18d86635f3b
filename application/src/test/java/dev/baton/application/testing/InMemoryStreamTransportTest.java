package dev.baton.application.testing;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

class InMemoryStreamTransportTest extends StreamTransportContract {
    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock, PAYLOAD_LIMIT);

    @Override
    protected StreamTransport transport() {
        return transport;
    }

    @Override
    protected void appendRaw(QueueName queue, Map<String, String> fields) {
        transport.appendRaw(queue, fields);
    }

    @Override
    protected void deleteFromStream(QueueName queue, DeliveryId id) {
        transport.deleteEntry(queue, id);
    }

    @Override
    protected void elapse(Duration duration) {
        clock.advance(duration);
    }
}
