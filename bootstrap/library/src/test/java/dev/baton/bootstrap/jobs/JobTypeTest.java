package dev.baton.bootstrap.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A job type's two halves without servers: the command a producer enqueues, the record a handler gets. */
class JobTypeTest {
    record Item(String sku, int count) {
    }

    record Order(String orderId, List<Item> items) {
        Order {
            if (items.isEmpty()) {
                throw new IllegalArgumentException("an order needs items");
            }
        }
    }

    private static final JobType<Order> ORDERS = JobType.of("order", Order.class);
    private static final QueueName QUEUE = QueueName.of("orders");

    @Test
    void aDelayedTypedCommandCarriesTheTypeTheJsonAndTheDelay() {
        EnqueueJobUseCase.Command command = ORDERS.command(QUEUE, JobId.of("o-1"),
                new Order("1", List.of(new Item("tea", 2)))).after(Duration.ofMinutes(5));

        assertThat(command.type()).hasValue("order");
        assertThat(command.payload()).isEqualTo("{\"orderId\":\"1\",\"items\":[{\"sku\":\"tea\",\"count\":2}]}");
        assertThat(command.delay()).hasValue(Duration.ofMinutes(5));
    }

    @Test
    void aNestedFieldThatDoesNotBindIsNamedByItsPath() {
        assertThatThrownBy(() -> handle("{\"orderId\":\"1\",\"items\":[{\"sku\":\"tea\",\"count\":\"two\"}]}"))
                .isInstanceOf(NonRetryableException.class)
                .hasMessage("payload does not bind to Order: field 'items[0].count': not a valid int ('two')");
    }

    @Test
    void aRecordThatRefusesItsValuesIsNonRetryableWithItsReason() {
        assertThatThrownBy(() -> handle("{\"orderId\":\"1\",\"items\":[]}"))
                .isInstanceOf(NonRetryableException.class)
                .hasMessage("payload does not bind to Order: refused by Order (an order needs items)");
    }

    private static Optional<String> handle(String payload) throws Exception {
        Job job = Job.create(JobId.of("o-1"), QUEUE, payload, Instant.EPOCH);
        return ORDERS.handledBy((order, context) -> Optional.of(order.orderId())).handle(new JobContext() {
            @Override
            public Job job() {
                return job;
            }

            @Override
            public int attempt() {
                return 1;
            }

            @Override
            public ConsumerName consumer() {
                return ConsumerName.of("test");
            }

            @Override
            public Instant deadline() {
                return Instant.MAX;
            }

            @Override
            public boolean cancelled() {
                return false;
            }

            @Override
            public <T> T unwrap(Class<T> type) {
                throw new UnsupportedOperationException();
            }
        });
    }
}
