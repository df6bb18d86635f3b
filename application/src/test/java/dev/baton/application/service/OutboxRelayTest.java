package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.testing.InMemoryJobOutbox;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
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
    void oneLookForgetsEveryEndedRowABatchAtATimeNotOneBatchOnly() {
        for (int i = 0; i < 25; i++) {
            outbox.add(job("f-" + i));
        }
        relay.runOnce();
        relay.runOnce();
        relay.runOnce();
        assertThat(observer.published).hasValue(25);
        for (int i = 0; i < 25; i++) {
            ended.add(JobId.of("f-" + i));
        }

        relay.runOnce(); // three batches of ten to forget

        assertThat(outbox.forgetEnded(1_000)).as("rows left to forget").isZero();
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

    /**
     * The relay's thread marks a published batch in the statement that claims the next one; one that dies before
     * that statement (here: at it) leaves the batch claimed and unmarked, and a relay after it publishes the batch
     * again once the claim expires.
     */
    @Test
    void aRelayThatDiesAfterPublishingAndBeforeTheMarkLosesNoJob() {
        DyingOutbox dying = new DyingOutbox(outbox);
        outbox.add(job("d-1"));
        OutboxRelay.Settings settings = new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofSeconds(1));
        try (OutboxRelay running = new OutboxRelay(dying, transport, epoch::get, PayloadLimit.DEFAULT, clock,
                settings, observer).start()) {
            await().atMost(Duration.ofSeconds(30)).untilTrue(dying.died);
        }
        assertThat(transport.stats(ORDERS).length()).isOne();
        assertThat(relay.runOnce()).as("still claimed").isZero();

        clock.advance(settings.claimLease());

        assertThat(relay.runOnce()).isOne();
        assertThat(transport.stats(ORDERS).length()).as("published again").isEqualTo(2);
        assertThat(outbox.backlog(clock.instant()).waiting()).isZero();
    }

    private Job job(String id) {
        return new Job(JobId.of(id), ORDERS, Optional.empty(), "{}", 0, clock.instant(), Optional.empty(),
                Optional.empty(), Map.of());
    }

    /** An outbox whose relay dies (an {@link Error} it does not catch) when it comes to mark a batch published. */
    private static final class DyingOutbox implements JobOutbox {
        final AtomicBoolean died = new AtomicBoolean();
        private final JobOutbox outbox;

        DyingOutbox(JobOutbox outbox) {
            this.outbox = outbox;
        }

        @Override
        public List<Entry> claim(int max, Instant now, Instant claimedUntil) {
            return outbox.claim(max, now, claimedUntil);
        }

        @Override
        public List<Entry> markPublishedAndClaim(Collection<Long> published, Instant at, int max, Instant now,
                                                 Instant claimedUntil) {
            if (!published.isEmpty()) {
                die();
            }
            return outbox.claim(max, now, claimedUntil);
        }

        @Override
        public void markPublished(Collection<Long> positions, Instant at) {
            die();
        }

        private void die() {
            died.set(true);
            throw new AssertionError("the relay dies before marking its batch published");
        }

        @Override
        public void markMalformed(long position, String reason) {
            outbox.markMalformed(position, reason);
        }

        @Override
        public int republishAfterLoss(String transportEpoch) {
            return outbox.republishAfterLoss(transportEpoch);
        }

        @Override
        public int forgetEnded(int max) {
            return outbox.forgetEnded(max);
        }

        @Override
        public void awaitNewRows(Duration timeout) throws InterruptedException {
            outbox.awaitNewRows(timeout);
        }

        @Override
        public OutboxBacklog backlog(Instant now) {
            return outbox.backlog(now);
        }
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
