package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What a lease on several partitions received beyond its max waits for the same consumer's next lease. */
class LeaseSurplusTest {
    private static final QueueName QUEUE = QueueName.of("orders");
    private final LeaseSurplus surplus = new LeaseSurplus();
    private final LeaseSurplus.Slot alice = new LeaseSurplus.Slot(QUEUE, ConsumerName.of("alice"));
    private final LeaseSurplus.Slot bob = new LeaseSurplus.Slot(QUEUE, ConsumerName.of("bob"));

    @Test
    void deliveriesBeyondTheMaxAreHandedOutByTheConsumersNextLeases() {
        List<Delivery> leased = deliveries(5);

        assertThat(surplus.atMost(alice, leased, 2)).containsExactlyElementsOf(leased.subList(0, 2));

        assertThat(surplus.take(bob, 10)).isEmpty();
        assertThat(surplus.take(alice, 2)).containsExactlyElementsOf(leased.subList(2, 4));
        assertThat(surplus.take(alice, 2)).containsExactlyElementsOf(leased.subList(4, 5));
        assertThat(surplus.take(alice, 2)).isEmpty();
    }

    @Test
    void aLeaseWithinItsMaxKeepsNothing() {
        List<Delivery> leased = deliveries(2);

        assertThat(surplus.atMost(alice, leased, 2)).isEqualTo(leased);
        assertThat(surplus.take(alice, 10)).isEmpty();
    }

    private static List<Delivery> deliveries(int count) {
        return IntStream.range(0, count).<Delivery>mapToObj(i -> new Delivery.Malformed(QUEUE,
                new DeliveryId(i + "-0"), 1, Map.of(), "test entry")).toList();
    }
}
