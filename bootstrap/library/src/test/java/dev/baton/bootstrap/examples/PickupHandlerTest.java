package dev.baton.bootstrap.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.testing.BatonTestHarness;
import dev.baton.application.testing.Drained;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Snoozing in a unit test: the harness's clock follows each snooze, so nothing waits. */
class PickupHandlerTest {
    private int closedChecks; // how many more checks find the depot closed

    private final BatonTestHarness baton = BatonTestHarness.builder()
            .handler(new PickupHandler(new PickupHandler.Depot() {
                @Override
                public Optional<Duration> closedFor() {
                    return closedChecks-- > 0 ? Optional.of(Duration.ofMinutes(30)) : Optional.empty();
                }

                @Override
                public String bookPickup(String jobId) {
                    return "P-" + jobId;
                }
            }))
            .build();

    @Test
    void aClosedDepotSnoozesThePickupWithoutSpendingAnAttempt() {
        closedChecks = 2;
        baton.enqueue(pickup("1001"));

        Drained drained = baton.drain();

        assertThat(drained.snoozed()).hasSize(2);
        assertThat(drained.retried()).isEmpty();
        assertThat(baton.completion(QueueName.of("shop-pickups"), JobId.of("pickup-1001")))
                .hasValueSatisfying(completion -> {
                    assertThat(completion.attempt()).isEqualTo(1);
                    assertThat(completion.result()).contains("pickup P-pickup-1001");
                });
    }

    @Test
    void aDepotThatNeverOpensEndsInTheDeadLetters() {
        closedChecks = Integer.MAX_VALUE;
        baton.enqueue(pickup("1002"));

        Drained drained = baton.drain();

        assertThat(drained.snoozed()).hasSize(PickupHandler.MAX_SNOOZES);
        assertThat(drained.deadLettered()).singleElement().satisfies(letter ->
                assertThat(letter.reason()).isEqualTo(DeadLetterReason.NON_RETRYABLE));
    }

    private static EnqueueJobUseCase.Command pickup(String orderId) {
        return EnqueueJobUseCase.Command.now(QueueName.of("shop-pickups"), JobId.of("pickup-" + orderId), "{}");
    }
}
