package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.port.out.TransportMemory;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryJobOutbox;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The outbox relay, one pass at a time, when Redis or PostgreSQL is down and comes back: it fails its passes, marks
 * nothing it did not publish, and relays once the server answers, without a restart.
 */
class OutboxRelayOutageTest {
    private static final QueueName ORDERS = QueueName.of("orders");
    private static final Duration CLAIM_LEASE = Duration.ofSeconds(30);

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T10:00:00Z"));
    private final InMemoryJobOutbox outbox = new InMemoryJobOutbox();
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);
    private boolean redisDown;
    private final TransportMemory memory = () -> {
        if (redisDown) {
            throw new TransportException("Redis is unreachable (test)");
        }
        return "run-1";
    };
    private final OutboxRelay relay = new OutboxRelay(outbox, transport, ledger, memory, PayloadLimit.DEFAULT, clock,
            new OutboxRelay.Settings(10, CLAIM_LEASE, Duration.ofSeconds(1)));

    private void redisDown(boolean down) {
        redisDown = down;
        transport.setUnreachable(down);
    }

    private void add(int count) {
        for (int i = 0; i < count; i++) {
            outbox.add(Job.create(JobId.of("job-" + i), ORDERS, "{}", clock.instant()));
        }
    }

    @Test
    void withRedisDownAtStartNothingIsPublishedUntilItAnswers() {
        add(2);
        redisDown(true);

        assertThatThrownBy(relay::runOnce).isInstanceOf(TransportException.class);
        assertThat(outbox.backlog(clock.instant()).waiting()).isEqualTo(2);

        redisDown(false);
        assertThat(relay.runOnce()).isEqualTo(2);
        relay.runOnce();

        assertThat(transport.stats(ORDERS).length()).isEqualTo(2);
        assertThat(outbox.backlog(clock.instant()).waiting()).isZero();
    }

    @Nested
    class WhenRedisDidNotTakeAClaimedBatch {
        /** Redis went down after the housekeeping's look: the claimed batch is held, and nothing else is claimed. */
        @Test
        void itGoesOutFirstOnceRedisAnswersNotOnceItsClaimExpired() {
            relay.runOnce(); // the epoch is recorded
            add(12);
            transport.setUnreachable(true);

            assertThatThrownBy(relay::runOnce).isInstanceOf(TransportException.class);
            assertThatThrownBy(relay::runOnce).isInstanceOf(TransportException.class);
            Instant now = clock.instant();
            assertThat(outbox.claim(10, now, now)).as("the rows beyond the first batch stay unclaimed").hasSize(2);

            transport.setUnreachable(false);
            assertThat(relay.runOnce()).as("the held batch, with its claim still on").isEqualTo(10);
            assertThat(relay.runOnce()).isEqualTo(2);
            relay.runOnce();

            assertThat(transport.stats(ORDERS).length()).as("each job once").isEqualTo(12);
            assertThat(outbox.backlog(clock.instant()).waiting()).isZero();
        }
    }

    @Test
    void aHeldBatchWhoseClaimExpiredIsLeftToTheNextClaim() {
        relay.runOnce();
        add(3);
        transport.setUnreachable(true);
        assertThatThrownBy(relay::runOnce).isInstanceOf(TransportException.class);

        transport.setUnreachable(false);
        clock.advance(CLAIM_LEASE);
        assertThat(relay.runOnce()).isEqualTo(3);
        relay.runOnce();

        assertThat(transport.stats(ORDERS).length()).as("claimed again, published once").isEqualTo(3);
    }

    @Test
    void withPostgresDownTheRelayFailsItsPassesAndRelaysOnceItAnswers() {
        add(2);
        outbox.setUnavailable(true);

        assertThatThrownBy(relay::runOnce).isInstanceOf(LedgerUnavailableException.class);

        outbox.setUnavailable(false);
        assertThat(relay.runOnce()).isEqualTo(2);
        assertThat(transport.stats(ORDERS).length()).isEqualTo(2);
    }
}
