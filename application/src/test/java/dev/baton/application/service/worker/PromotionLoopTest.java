package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PromotionLoopTest {
    private static final QueueName QUEUE = Deliveries.QUEUE;

    private final MutableClock clock = MutableClock.at(Deliveries.NOW);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final PromotionLoop promotion = new PromotionLoop(transport, List.of(QUEUE), clock);

    @Test
    void aJobMovesIntoTheStreamOnceDueAndALaterOneWaits() {
        transport.publish(delayed("soon", Duration.ofMinutes(1)));
        transport.publish(delayed("later", Duration.ofMinutes(5)));

        assertThat(promotion.runOnce()).isEqualTo(new PromotionLoop.Promoted(0));
        assertThat(transport.stats(QUEUE).delayed()).isEqualTo(2);
        clock.advance(Duration.ofMinutes(1));
        assertThat(promotion.runOnce()).isEqualTo(new PromotionLoop.Promoted(1));

        assertThat(transport.stats(QUEUE).delayed()).isEqualTo(1);
        assertThat(transport.lease(QUEUE, ConsumerName.of("w1"), 10, Duration.ZERO).deliveries())
                .extracting(delivery -> ((Delivery.Leased) delivery).job().id())
                .containsExactly(JobId.of("soon"));
    }

    @Test
    void aBacklogLargerThanOneBatchIsPromotedInOnePass() {
        int jobs = PromotionLoop.BATCH + 1;
        transport.publishAll(IntStream.range(0, jobs).mapToObj(i -> delayed("due-" + i, Duration.ofSeconds(1)))
                .toList());
        clock.advance(Duration.ofSeconds(1));

        assertThat(promotion.runOnce()).isEqualTo(new PromotionLoop.Promoted(jobs));

        assertThat(transport.stats(QUEUE).delayed()).isZero();
        assertThat(transport.stats(QUEUE).length()).isEqualTo(jobs);
    }

    private Job delayed(String id, Duration after) {
        return Job.create(JobId.of(id), QUEUE, "{}", clock.instant()).notBefore(clock.instant().plus(after));
    }
}
