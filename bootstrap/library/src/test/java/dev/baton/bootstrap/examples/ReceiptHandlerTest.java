package dev.baton.bootstrap.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.testing.BatonTestHarness;
import dev.baton.application.testing.Drained;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The handler in a unit test: enqueue, drain, assert. No servers, no sleeps. */
class ReceiptHandlerTest {
    private final List<String> mailed = new ArrayList<>();
    private int outages; // how many sends fail before the gateway is back

    private final BatonTestHarness baton = BatonTestHarness.builder()
            .handler(new ReceiptHandler((key, to, text) -> {
                if (outages-- > 0) {
                    throw new IOException("mail gateway unavailable");
                }
                mailed.add(key + " " + to + ": " + text);
            }))
            .build();

    @Test
    void aReceiptIsMailedOnceKeyedByTheJobId() {
        baton.enqueue(receipt("1001", "{\"orderId\":\"1001\",\"email\":\"ada@example.com\"}"));

        Drained drained = baton.drain();

        assertThat(drained.completed()).hasSize(1);
        assertThat(mailed).containsExactly("receipt-1001 ada@example.com: Thank you for order 1001");
    }

    @Test
    void anOutageIsRetriedUntilTheGatewayIsBack() {
        outages = 2;
        baton.enqueue(receipt("1001", "{\"orderId\":\"1001\",\"email\":\"ada@example.com\"}"));

        Drained drained = baton.drain(); // moves the test's clock to each retry: nothing waits

        assertThat(drained.retried()).hasSize(2);
        assertThat(baton.completion(QueueName.of("shop-receipts"), JobId.of("receipt-1001")))
                .hasValueSatisfying(completion -> assertThat(completion.attempt()).isEqualTo(3));
        assertThat(mailed).hasSize(1);
    }

    @Test
    void aReceiptWithoutAnEmailGoesToTheDeadLettersAtOnce() {
        baton.enqueue(receipt("1002", "{\"orderId\":\"1002\"}"));

        Drained drained = baton.drain();

        assertThat(drained.deadLettered()).singleElement().satisfies(letter -> {
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE);
            assertThat(letter.lastError().message()).isEqualTo("a receipt needs an email");
        });
        assertThat(mailed).isEmpty();
    }

    private static EnqueueJobUseCase.Command receipt(String orderId, String payload) {
        return EnqueueJobUseCase.Command.now(QueueName.of("shop-receipts"), JobId.of("receipt-" + orderId), payload);
    }
}
