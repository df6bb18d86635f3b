package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryJobOutbox;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class OutboxRelayTest {
    private static final QueueName ORDERS = QueueName.of("orders");

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final Set<JobId> ended = ConcurrentHashMap.newKeySet();
    private final InMemoryJobOutbox outbox = new InMemoryJobOutbox(job -> ended.contains(job.id()));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private final AtomicReference<String> epoch = new AtomicReference<>("run-1");
    private final CountingObserver observer = new CountingObserver();
    private final AtomicInteger looks = new AtomicInteger();
    private final OutboxRelay relay = new OutboxRelay(outbox, transport, ledger, epoch::get,
            PayloadLimit.DEFAULT, clock,
            new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofSeconds(1)), observer, observer);

    @Test
    void eachJobTheRelayPublishesIsHeardAsEnqueuedOnceOnItsQueue() {
        Job email = Job.create(JobId.of("e-1"), QueueName.of("emails"), "{}", clock.instant());
        outbox.add(job("p-1"));
        outbox.add(email);
        outbox.addMalformed("no queue!", Map.of("job_id", "p-3", "payload", "{}"), "queue name is invalid");

        relay.runOnce();
        relay.runOnce();

        assertThat(observer.enqueued).extracting(Job::id, Job::queue)
                .containsExactlyInAnyOrder(tuple(JobId.of("p-1"), ORDERS), tuple(email.id(), email.queue()));
    }

    @Test
    void theObserverHearsHowManyJobsTheRelayPublished() {
        outbox.add(job("p-1"));
        outbox.add(job("p-2"));
        outbox.addMalformed("no queue!", Map.of("job_id", "p-3", "payload", "{}"), "queue name is invalid");

        assertThat(relay.runOnce()).isEqualTo(3);
        relay.runOnce();

        assertThat(observer.published).hasValue(2);
        assertThat(observer.republished).hasValue(0);
        assertThat(transport.stats(ORDERS).length()).isEqualTo(2);
        assertThat(outbox.backlog(clock.instant()).malformed()).isOne();
    }

    @Test
    void afterALossTheObserverHearsJobsRepublishedAndPublished() {
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

    @Nested
    class ItsHousekeeping {
        @Test
        void looksForALossOncePerPollIntervalHoweverManyBatchesItRelays() {
            epoch.set("run-2"); // a loss, seen by the first look
            for (int i = 0; i < 25; i++) {
                outbox.add(job("t-" + i));
            }
            // batches of 10: three batches at one instant of the clock, the first with the look
            try (OutboxRelay running = new OutboxRelay(outbox, transport, ledger, () -> {
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
    }

    /**
     * The first record of the transport's epoch makes every published row outstanding again, as a loss does: a relay
     * that published before its housekeeping's first look would publish its first batch twice.
     */
    @Test
    void aRelayPublishesNothingBeforeTheTransportsEpochIsRecorded() throws InterruptedException {
        CountDownLatch looking = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        outbox.add(job("e-1"));
        outbox.add(job("e-2"));
        try (OutboxRelay running = new OutboxRelay(outbox, transport, ledger, () -> {
            looking.countDown();
            awaitQuietly(release);
            return epoch.get();
        }, PayloadLimit.DEFAULT, clock, new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofSeconds(1)),
                observer).start()) {
            assertThat(looking.await(30, TimeUnit.SECONDS)).isTrue();
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                    .until(() -> observer.published.get() == 0);

            release.countDown();

            await().atMost(Duration.ofSeconds(30)).until(() -> observer.published.get() == 2);
            assertThat(observer.republished).hasValue(0);
            assertThat(transport.stats(ORDERS).length()).isEqualTo(2);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * While its claims find rows the relay is marked claiming, and commits do not wake it (the in-memory outbox wakes
     * no relay then, as PostgreSQL's sends no NOTIFY): it must unmark itself before it waits, or the next commit
     * waits for the poll interval (an hour here).
     */
    @Test
    void aRelayIsMarkedClaimingWhileItFindsRowsUnmarkedBeforeItWaits() {
        outbox.republishAfterLoss(epoch.get()); // the epoch is known: the housekeeping republishes nothing
        for (int i = 0; i < 25; i++) {
            outbox.add(job("c-" + i));
        }
        MarkCounting counting = new MarkCounting(outbox);
        try (OutboxRelay running = new OutboxRelay(counting, transport, ledger, epoch::get, PayloadLimit.DEFAULT,
                clock, new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofHours(1)), observer).start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> counting.stops.get() == 1);
            assertThat(observer.published).hasValue(25);
            assertThat(counting.marks).hasValue(1);

            outbox.add(job("c-late"));
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.published.get() == 26);
        }
    }

    /** The housekeeping has a thread of its own: a look that takes long (here: one stuck) holds up no publishing. */
    @Test
    void publishingGoesOnWhileTheHousekeepingIsStuckForgettingRows() {
        StuckForgetting stuck = new StuckForgetting(outbox);
        try (OutboxRelay running = new OutboxRelay(stuck, transport, ledger, epoch::get, PayloadLimit.DEFAULT, clock,
                new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofSeconds(1)), observer).start()) {
            await().atMost(Duration.ofSeconds(30)).untilTrue(stuck.forgetting);
            outbox.add(job("s-1"));
            outbox.add(job("s-2"));

            await().atMost(Duration.ofSeconds(30)).until(() -> observer.published.get() == 2);
        } finally {
            stuck.release.countDown();
        }
    }

    @Nested
    class WhenARowIsNoJob {
        /**
         * A row that is no job is dead-lettered MALFORMED with its raw values and reason: in the ledger, then in its
         * queue's dead letters, then marked in the outbox; the rows after it are published.
         */
        @Test
        void itIsDeadLetteredMalformedInLedgerAndQueueTheRestPublished() {
            Map<String, String> raw = Map.of("job_id", "bad\nid", "payload", "{}", "tenant", "acme");
            long position = outbox.addMalformed("orders", raw, "job id must be printable text");
            outbox.add(job("after-1"));

            assertThat(relay.runOnce()).isEqualTo(2);

            List<StoredDeadLetter> dead = transport.deadLetters(ORDERS, Optional.empty(), 10);
            assertThat(dead).singleElement().satisfies(stored -> {
                assertThat(stored.letter().job()).isEmpty();
                assertThat(stored.letter().rawFields()).isEqualTo(raw);
                assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.MALFORMED);
                assertThat(stored.letter().lastError().message()).isEqualTo("job id must be printable text");
            });
            assertThat(ledger.find(ORDERS, "bad\nid")).get().isInstanceOfSatisfying(JobOutcome.Dead.class, outcome -> {
                assertThat(outcome.record().reason()).isEqualTo(DeadLetterReason.MALFORMED);
                assertThat(outcome.record().entryId()).isEqualTo("outbox:" + position);
                assertThat(outcome.record().consumer()).isEqualTo(OutboxRefusals.CONSUMER);
            });
            assertThat(outbox.backlog(clock.instant()).malformed()).isOne();
            assertThat(transport.stats(ORDERS).length()).as("the row after it").isOne();
        }
    }

    /** A payload over the limit: the job itself is dead-lettered, keyed by its id in the ledger. */
    @Test
    void aJobOverThePayloadLimitIsDeadLetteredMalformedAsAJob() {
        OutboxRelay small = new OutboxRelay(outbox, transport, ledger, epoch::get, new PayloadLimit(1), clock,
                new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofSeconds(1)));
        outbox.add(job("big"));

        small.runOnce();

        assertThat(transport.deadLetters(ORDERS, Optional.empty(), 10)).singleElement()
                .satisfies(stored -> assertThat(stored.letter().job().map(Job::id)).contains(JobId.of("big")));
        assertThat(ledger.find(ORDERS, "big")).get().isInstanceOf(JobOutcome.Dead.class);
    }

    @Nested
    class WhenTheTransportFailsTheDeadLetter {
        /**
         * When the transport fails to take the dead letter, the row stays unmarked (the ledger already says dead); once
         * its claim expired the relay dead-letters it again, once, and only then marks it.
         */
        @Test
        void theRowStaysUnmarkedAndIsDeadLetteredOnceOnTheNextClaim() {
            outbox.addMalformed("orders", Map.of("payload", "{}"), "missing job id");
            outbox.add(job("after-2"));
            transport.failNextUnpublishedDeadLetters(1);

            assertThat(relay.runOnce()).isEqualTo(2);
            assertThat(outbox.backlog(clock.instant()).malformed()).as("left for the next claim").isZero();
            assertThat(transport.deadLetters(ORDERS, Optional.empty(), 10)).isEmpty();
            assertThat(transport.stats(ORDERS).length()).as("the rest of the batch goes on").isOne();
            assertThat(relay.runOnce()).as("still claimed").isZero();

            clock.advance(Duration.ofSeconds(30));
            assertThat(relay.runOnce()).isOne();
            relay.runOnce();

            assertThat(transport.deadLetters(ORDERS, Optional.empty(), 10)).hasSize(1);
            assertThat(outbox.backlog(clock.instant()).malformed()).isOne();
            assertThat(outbox.backlog(clock.instant()).waiting()).isZero();
        }
    }

    /** A row whose queue name is invalid has no queue for a dead letter: it is marked in the outbox only. */
    @Test
    void aRowWithAnInvalidQueueNameIsMarkedInTheOutboxOnly() {
        outbox.addMalformed("no queue!", Map.of("job_id", "nq-1", "payload", "{}"), "queue name is invalid");

        relay.runOnce();

        assertThat(outbox.backlog(clock.instant()).malformed()).isOne();
        assertThat(ledger.find(ORDERS, "nq-1")).isEmpty();
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
        try (OutboxRelay running = new OutboxRelay(dying, transport, ledger, epoch::get, PayloadLimit.DEFAULT, clock,
                settings, observer).start()) {
            // the relay's thread dies of the error on purpose: it is no failure of the test
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(30)).untilTrue(dying.died);
        }
        assertThat(transport.stats(ORDERS).length()).isOne();
        assertThat(relay.runOnce()).as("still claimed").isZero();

        clock.advance(settings.claimLease());

        assertThat(relay.runOnce()).isOne();
        assertThat(transport.stats(ORDERS).length()).as("published again").isEqualTo(2);
        assertThat(outbox.backlog(clock.instant()).waiting()).isZero();
    }

    /**
     * Whoever closes the relay closes its outbox and transport next: closing lets the batch being published go out,
     * and returns only once the relay marked it, or the batch would be published again.
     */
    @Test
    void closingLetsTheBatchBeingPublishedGoOutReturningOnceMarked() throws InterruptedException {
        outbox.republishAfterLoss(epoch.get()); // the epoch is known: the housekeeping republishes nothing
        outbox.add(job("m-1"));
        HeldPublishing publisher = new HeldPublishing(transport);
        OutboxRelay running = new OutboxRelay(outbox, publisher, ledger, epoch::get, PayloadLimit.DEFAULT, clock,
                new OutboxRelay.Settings(10, Duration.ofSeconds(30), Duration.ofHours(1)), observer).start();
        await().atMost(Duration.ofSeconds(30)).until(() -> publisher.publishing.getCount() == 0);

        Thread closing = new Thread(running::close, "closing");
        closing.start();
        await("closing waits for the relay").atMost(Duration.ofSeconds(30))
                .until(() -> closing.getState() == Thread.State.TIMED_WAITING);
        publisher.release.countDown();
        closing.join();

        assertThat(publisher.interrupted).as("the publishing was interrupted").isFalse();
        assertThat(transport.stats(ORDERS).length()).isOne();
        assertThat(outbox.backlog(clock.instant()).waiting()).as("marked published").isZero();
    }

    private Job job(String id) {
        return new Job(JobId.of(id), ORDERS, Optional.empty(), "{}", 0, clock.instant(), Optional.empty(),
                Optional.empty(), Map.of());
    }

    /** An outbox whose relay dies (an {@link Error} it does not catch) when it comes to mark a batch published. */
    private static final class DyingOutbox extends DelegatingOutbox {
        final AtomicBoolean died = new AtomicBoolean();

        DyingOutbox(JobOutbox outbox) {
            super(outbox);
        }

        @Override
        public List<Entry> markPublishedAndClaim(Collection<Long> published, Instant at, int max, Instant now,
                                                 Instant claimedUntil) {
            if (!published.isEmpty()) {
                die();
            }
            return claim(max, now, claimedUntil);
        }

        @Override
        public void markPublished(Collection<Long> positions, Instant at) {
            die();
        }

        private void die() {
            died.set(true);
            throw new AssertionError("the relay dies before marking its batch published");
        }
    }

    /** Publishes what the transport publishes, each batch once released; notes an interrupt meanwhile. */
    private static final class HeldPublishing implements JobPublisher {
        final CountDownLatch publishing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean interrupted;
        private final JobPublisher transport;

        HeldPublishing(JobPublisher transport) {
            this.transport = transport;
        }

        @Override
        public void publish(Job job) {
            publishAll(List.of(job));
        }

        @Override
        public void publishAll(List<Job> jobs) {
            publishing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted = true;
                Thread.currentThread().interrupt();
                throw new TransportException("publishing was interrupted", e);
            }
            transport.publishAll(jobs);
        }

        @Override
        public JobId publishUnique(Job job) {
            return transport.publishUnique(job);
        }

        @Override
        public void deadLetterUnpublished(DeadLetter letter, String origin) {
            transport.deadLetterUnpublished(letter, origin);
        }
    }

    /** An outbox whose forgetting is stuck until released (or interrupted). */
    private static final class StuckForgetting extends DelegatingOutbox {
        final AtomicBoolean forgetting = new AtomicBoolean();
        final CountDownLatch release = new CountDownLatch(1);

        StuckForgetting(JobOutbox outbox) {
            super(outbox);
        }

        @Override
        public int forgetEnded(int max) {
            forgetting.set(true);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 0;
        }
    }

    /** Hands every call to the outbox it wraps; subclasses change one step. */
    private static class DelegatingOutbox implements JobOutbox {
        private final JobOutbox outbox;

        DelegatingOutbox(JobOutbox outbox) {
            this.outbox = outbox;
        }

        @Override
        public List<Entry> claim(int max, Instant now, Instant claimedUntil) {
            return outbox.claim(max, now, claimedUntil);
        }

        @Override
        public List<Entry> markPublishedAndClaim(Collection<Long> published, Instant at, int max, Instant now,
                                                 Instant claimedUntil) {
            return outbox.markPublishedAndClaim(published, at, max, now, claimedUntil);
        }

        @Override
        public void markPublished(Collection<Long> positions, Instant at) {
            outbox.markPublished(positions, at);
        }

        @Override
        public void keepClaiming(String relay, Duration lease) {
            outbox.keepClaiming(relay, lease);
        }

        @Override
        public List<Entry> stopClaimingAndClaim(String relay, Collection<Long> published, Instant at, int max,
                                                Instant now, Instant claimedUntil) {
            return outbox.stopClaimingAndClaim(relay, published, at, max, now, claimedUntil);
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

    /** Counts the relay's marks as claiming and its unmarks. */
    private static final class MarkCounting extends DelegatingOutbox {
        final AtomicInteger marks = new AtomicInteger();
        final AtomicInteger stops = new AtomicInteger();

        MarkCounting(JobOutbox outbox) {
            super(outbox);
        }

        @Override
        public void keepClaiming(String relay, Duration lease) {
            marks.incrementAndGet();
            super.keepClaiming(relay, lease);
        }

        @Override
        public List<Entry> stopClaimingAndClaim(String relay, Collection<Long> published, Instant at, int max,
                                                Instant now, Instant claimedUntil) {
            List<Entry> claimed = super.stopClaimingAndClaim(relay, published, at, max, now, claimedUntil);
            stops.incrementAndGet();
            return claimed;
        }
    }

    private static final class CountingObserver implements MaintenanceObserver, JobObserver {
        final AtomicInteger published = new AtomicInteger();
        final AtomicInteger republished = new AtomicInteger();
        final List<Job> enqueued = new CopyOnWriteArrayList<>();

        @Override
        public void jobEnqueued(Job job) {
            enqueued.add(job);
        }

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
