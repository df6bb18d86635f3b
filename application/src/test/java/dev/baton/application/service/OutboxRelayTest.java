package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.testing.InMemoryJobOutbox;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OutboxRelayTest {
    private static final QueueName ORDERS = QueueName.of("orders");

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final Set<JobId> ended = ConcurrentHashMap.newKeySet();
    private final InMemoryJobOutbox outbox = new InMemoryJobOutbox(ended::contains);
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final AtomicReference<String> epoch = new AtomicReference<>("run-1");
    private final CountingObserver observer = new CountingObserver();
    private final AtomicInteger looks = new AtomicInteger();
    private final OutboxRelay relay = new OutboxRelay(outbox, transport, epoch::get, PayloadLimit.DEFAULT, clock,
            new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofSeconds(1)), observer);

    @Test
    void theObserverHearsHowManyJobsTheRelayPublished() {
        outbox.add(job("p-1"));
        outbox.add(job("p-2"));
        outbox.addMalformed("queue name is invalid");

        assertThat(relay.runOnce()).isEqualTo(3);
        relay.runOnce();

        assertThat(observer.published).hasValue(2);
        assertThat(observer.republished).hasValue(0);
        assertThat(transport.stats(ORDERS).length()).isEqualTo(2);
        assertThat(outbox.backlog(clock.instant()).malformed()).isOne();
    }

    @Test
    void afterALossTheObserverHearsTheRepublishedJobsAndTheirPublishing() {
        outbox.add(job("l-1"));
        outbox.add(job("l-2"));
        relay.runOnce();
        ended.add(JobId.of("l-1"));

        epoch.set("run-2");
        relay.runOnce();

        assertThat(observer.republished).hasValue(1);
        assertThat(observer.published).hasValue(3);
        assertThat(outbox.backlog(clock.instant()).waiting()).isZero();
    }

    @Test
    void itsThreadLooksForALossOncePerPollIntervalHoweverManyBatchesItRelays() {
        epoch.set("run-2"); // a loss, seen by the first look
        for (int i = 0; i < 25; i++) {
            outbox.add(job("t-" + i));
        }
        // batches of 10: three batches at one instant of the clock, the first with the look
        try (OutboxRelay running = new OutboxRelay(outbox, transport, () -> {
            looks.incrementAndGet();
            return epoch.get();
        }, PayloadLimit.DEFAULT, clock, new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofSeconds(1)),
                observer).start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.published.get() == 25);
            assertThat(looks).hasValue(1);

            clock.advance(Duration.ofSeconds(1));
            outbox.add(job("t-late"));
            await().atMost(Duration.ofSeconds(30)).until(() -> looks.get() == 2);
        }
    }

    private Job job(String id) {
        return new Job(JobId.of(id), ORDERS, Optional.empty(), "{}", 0, clock.instant(), Optional.empty(),
                Optional.empty(), Map.of());
    }

    private static final class CountingObserver implements MaintenanceObserver {
        final AtomicInteger published = new AtomicInteger();
        final AtomicInteger republished = new AtomicInteger();

        @Override
        public void outboxPublished(int count) {
            published.addAndGet(count);
        }

        @Override
        public void outboxRepublished(int count) {
            republished.addAndGet(count);
        }
    }
}
