package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class EventStreamClientTest {
    private static final QueueName ORDERS = QueueName.of("orders");

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final AtomicLong completed = new AtomicLong();
    private final ReadQueueTotalsUseCase reader = command ->
            Map.of(ORDERS, new QueueTotals(ORDERS, completed.get(), 0, 0));
    private final ThroughputSampler sampler =
            new ThroughputSampler(reader, () -> List.of(ORDERS), clock, 900, UnaryOperator.identity());

    @Test
    void aStalledBrowserIsEndedWithoutHoldingUpTheSamplerOrOthers() {
        CountDownLatch never = new CountDownLatch(1);
        OutputStream stalled = new OutputStream() {
            @Override
            public void write(int b) {
                awaitForever(never);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                awaitForever(never);
            }
        };
        AtomicInteger stalledEnds = new AtomicInteger();
        ByteArrayOutputStream reading = new ByteArrayOutputStream();
        EventStream.Client stuck = new EventStream.Client(stalled, stalledEnds::incrementAndGet, () -> { });
        EventStream.Client healthy = new EventStream.Client(reading, () -> { }, () -> { });
        sample();
        stuck.start(sampler);
        healthy.start(sampler);

        // the stuck client's writer blocks on its first sample; the sampler goes on without waiting for it, while the
        // healthy one reads every event as it comes
        for (int i = 1; i <= EventStream.BACKLOG + 2; i++) {
            sample();
            long sent = i;
            await().atMost(Duration.ofSeconds(10)).until(() -> events(reading) == sent);
        }

        assertThat(stuck.isEnded()).as("fell a backlog behind").isTrue();
        assertThat(stalledEnds).hasValue(1);
        assertThat(healthy.isEnded()).isFalse();
        healthy.end();
    }

    private void sample() {
        completed.addAndGet(5);
        clock.advance(Duration.ofSeconds(1));
        sampler.runOnce();
    }

    private static long events(ByteArrayOutputStream out) {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("data: ")).count();
        }
    }

    private static void awaitForever(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
