package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.JobId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The consumer names workers run under on the in-memory adapters: never shared, and no pile-up over restarts. */
class WorkerConsumerNamesTest extends WorkerFixture {
    private static final ConsumerName HOST = ConsumerName.of("web-7");

    @Test
    void aSecondWorkerUnderALiveWorkersNameRunsUnderTheNextNumber() {
        handlers.put("orders", counting("orders"));
        RunningWorker first = start(HOST.value(), 1);
        RunningWorker second = start(HOST.value(), 1);

        assertThat(first.consumer()).isEqualTo(HOST);
        assertThat(second.consumer()).isEqualTo(HOST.numbered(2));
        first.stop(Duration.ZERO);
        enqueue("o-1");

        await().atMost(WAIT).until(() -> second.counters().completed() == 1);
        assertThat(ledger.find(queue, JobId.of("o-1")).orElseThrow().consumer()).isEqualTo(HOST.numbered(2));
        assertThat(start(HOST.value(), 1).consumer()).as("the stopped worker's name is free again").isEqualTo(HOST);
    }

    @Nested
    class WhenAWorkerStarts {
        @Test
        void itRemovesEarlierRunsEmptyConsumersAndKeepsOneHoldingEntries() {
            ConsumerName oldPid = ConsumerName.of(HOST + "-4821");
            ConsumerName holding = ConsumerName.of(HOST + "-4822");
            ConsumerName neighbour = ConsumerName.of("web-8");
            enqueue("done");
            enqueue("held");
            transport.acknowledge(queue, List.of(transport.lease(queue, oldPid, 1, Duration.ZERO).deliveries().get(0)
                    .id()));
            transport.lease(queue, holding, 1, Duration.ZERO);
            transport.lease(queue, neighbour, 1, Duration.ZERO);

            start(HOST.value(), 1);

            assertThat(transport.stats(queue).consumers()).extracting(ConsumerStats::name)
                    .contains(holding.value(), neighbour.value()).doesNotContain(oldPid.value());
            assertThat(transport.stats(queue).pending()).isEqualTo(1);
        }
    }
}
