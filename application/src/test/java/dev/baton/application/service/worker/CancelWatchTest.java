package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The cancel watch, one pass at a time: what it marks, and whose handlers it interrupts. */
class CancelWatchTest {
    private final MutableClock clock = MutableClock.at(Deliveries.NOW);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InFlight inFlight = new InFlight(4);
    private final CancelWatch watch = new CancelWatch(new CancelMarks(transport), inFlight, Duration.ZERO,
            ConsumerName.of("w1"));

    @Test
    void aJobCancelledWhileHeldIsMarkedOnceThenPastItsGrace() {
        HeldDelivery doomed = inFlight.hold(Deliveries.leased("doomed")).orElseThrow();
        inFlight.hold(Deliveries.leased("kept")).orElseThrow();
        transport.cancel(Deliveries.QUEUE, JobId.of("doomed"), clock.instant());

        assertThat(watch.runOnce()).isEqualTo(new CancelWatch.Watched(1, 0));
        assertThat(doomed.isCancelled()).isTrue();
        assertThat(watch.runOnce()).as("asked no more, its grace of zero passed")
                .isEqualTo(new CancelWatch.Watched(0, 1));
    }

    @Test
    void nothingCancelledMarksNothing() {
        inFlight.hold(Deliveries.leased("kept")).orElseThrow();

        assertThat(watch.runOnce()).isEqualTo(new CancelWatch.Watched(0, 0));
    }
}
