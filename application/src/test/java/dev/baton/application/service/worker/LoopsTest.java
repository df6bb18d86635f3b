package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.ConsumerName;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler of the loops, on real time: a pass that fails is followed by the next. */
class LoopsTest {
    private static final Duration OFTEN = Duration.ofMillis(1);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Loops loops = new Loops(ConsumerName.of("w1"), new WorkerThreads(JobThreads.PLATFORM, 1, "test"));

    @AfterEach
    void shutdown() {
        loops.shutdownNow();
    }

    @Test
    void aLoopOutlivesAFailingPass() {
        AtomicInteger passes = new AtomicInteger();
        loops.untilShutdown("flaky", () -> {
            int pass = passes.incrementAndGet();
            if (pass == 1) {
                throw new IllegalStateException("transport down");
            }
            return pass;
        }, Duration.ZERO, OFTEN).start();

        await().atMost(WAIT).until(() -> passes.get() >= 3);
    }

    @Test
    void loopsServingLeasingEndWhenLeasingStopsAndTheOthersGoOn() {
        AtomicInteger promotions = new AtomicInteger();
        AtomicInteger extensions = new AtomicInteger();
        AtomicInteger sweeps = new AtomicInteger();
        loops.whileLeasing("promotion", promotions::incrementAndGet, Duration.ZERO, OFTEN)
                .untilShutdown("lease extension", extensions::incrementAndGet, Duration.ZERO, OFTEN)
                .sweepingDeadlines(sweeps::incrementAndGet, OFTEN)
                .start();
        await().atMost(WAIT).until(() -> promotions.get() > 0 && extensions.get() > 0 && sweeps.get() > 0);

        loops.leasingStopped();
        int promotedBefore = promotions.get() + 1; // a pass under way may still finish
        int extendedBefore = extensions.get();
        int sweptBefore = sweeps.get();

        await().atMost(WAIT).until(() -> extensions.get() > extendedBefore + 2 && sweeps.get() > sweptBefore + 2);
        assertThat(promotions.get()).isLessThanOrEqualTo(promotedBefore);
    }
}
