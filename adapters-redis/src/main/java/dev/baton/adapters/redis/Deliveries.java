package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.RedisValues.fields;
import static dev.baton.adapters.redis.Utf8.ascii;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import io.lettuce.core.StreamMessage;
import java.util.List;

/**
 * Stream entries as the port's deliveries, whether XREADGROUP or a script handed them out: {@link WireMapping} reads
 * the fields, the partition makes the delivery id.
 */
final class Deliveries {
    private final WireMapping wire;

    Deliveries(WireMapping wire) {
        this.wire = wire;
    }

    /** Entries that XREADGROUP delivered for the first time. */
    List<Delivery> firstDeliveries(QueueKeys keys, List<StreamMessage<byte[], byte[]>> messages) {
        return messages.stream().map(message -> delivery(keys, message.getId(), 1, 0, fields(message))).toList();
    }

    /**
     * An entry a script delivered again, as the scripts reply it: {@code {entry id, fields, delivery count, isolated
     * deliveries}}; its fields must be there (an entry trimmed while pending has none).
     */
    Delivery redelivery(QueueKeys keys, List<?> entry) {
        return delivery(keys, ascii((byte[]) entry.get(0)), (Long) entry.get(2), (Long) entry.get(3),
                fields(entry.get(1)));
    }

    private Delivery delivery(QueueKeys keys, String entryId, long deliveryCount, long isolated,
                              List<byte[]> fields) {
        return wire.delivery(keys.queue(), entryId, new DeliveryId(keys.idOf(entryId)), deliveryCount, isolated,
                fields);
    }
}
