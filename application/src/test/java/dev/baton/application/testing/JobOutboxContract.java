package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.JobOutbox;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every outbox does, as tests: claims in commit order, never twice while claimed, and reports its backlog. An
 * adapter test extends this class over an empty outbox.
 */
public abstract class JobOutboxContract {
    protected static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final QueueName QUEUE = QueueName.of("outbox-contract");
    private static final QueueName OTHER_QUEUE = QueueName.of("outbox-contract-other");

    private JobOutbox outbox;

    /** An empty outbox. Called once per test, first. */
    protected abstract JobOutbox createOutbox();

    /** Commits {@code job} to the outbox as a producer's transaction does. */
    protected abstract void commit(Job job);

    /** Records a terminal outcome of {@code job} (its queue and id) in the ledger the outbox reads. */
    protected abstract void end(Job job);

    @BeforeEach
    void create() {
        outbox = createOutbox();
    }

    protected static Job job(String id, Instant enqueuedAt) {
        return job(QUEUE, id, enqueuedAt);
    }

    private static Job job(QueueName queue, String id, Instant enqueuedAt) {
        return new Job(JobId.of(id), queue, Optional.empty(), "{}", 0, enqueuedAt, Optional.empty(),
                Optional.empty(), Map.of());
    }

    @Test
    void anEmptyOutboxHasNoBacklog() {
        assertThat(outbox.backlog(T0)).isEqualTo(OutboxBacklog.EMPTY);
    }

    @Test
    void theBacklogCountsWaitingRowsAndTheOldestsAgeUntilPublished() {
        commit(job("b-1", T0));
        commit(job("b-2", T0.plusSeconds(5)));

        assertThat(outbox.backlog(T0.plusSeconds(12))).isEqualTo(new OutboxBacklog(2, Duration.ofSeconds(12), 0));

        List<JobOutbox.Entry> claimed = outbox.claim(1, T0, T0.plusSeconds(30));
        outbox.markPublished(List.of(claimed.get(0).position()), T0.plusSeconds(12));

        assertThat(outbox.backlog(T0.plusSeconds(12))).isEqualTo(new OutboxBacklog(1, Duration.ofSeconds(7), 0));
    }

    @Test
    void aRowMarkedMalformedLeavesTheWaitingOnesAndIsCountedApart() {
        commit(job("m-1", T0));
        long position = outbox.claim(1, T0, T0.plusSeconds(30)).get(0).position();

        outbox.markMalformed(position, "no job");

        assertThat(outbox.backlog(T0)).isEqualTo(new OutboxBacklog(0, Duration.ZERO, 1));
        assertThat(outbox.claim(10, T0.plusSeconds(60), T0.plusSeconds(90))).isEmpty();
    }

    @Test
    void rowsAreClaimedInCommitOrderAndNotAgainBeforeTheClaimExpires() {
        commit(job("c-1", T0));
        commit(job("c-2", T0));

        assertThat(outbox.claim(10, T0, T0.plusSeconds(30))).extracting(JobOutboxContract::jobId)
                .containsExactly("c-1", "c-2");
        assertThat(outbox.claim(10, T0.plusSeconds(29), T0.plusSeconds(59))).isEmpty();
        assertThat(outbox.claim(10, T0.plusSeconds(30), T0.plusSeconds(60))).extracting(JobOutboxContract::jobId)
                .containsExactly("c-1", "c-2");
    }

    /** At 60 s the first row's claim has expired: only the mark keeps it from being claimed again. */
    @Test
    void oneCallMarksTheBatchBeforePublishedAndClaimsTheRowsWaiting() {
        commit(job("k-1", T0));
        long first = outbox.claim(1, T0, T0.plusSeconds(30)).get(0).position();
        commit(job("k-2", T0));

        assertThat(outbox.markPublishedAndClaim(List.of(first), T0.plusSeconds(60), 10, T0.plusSeconds(60),
                T0.plusSeconds(90))).extracting(JobOutboxContract::jobId).containsExactly("k-2");
        assertThat(outbox.claim(10, T0.plusSeconds(120), T0.plusSeconds(150))).extracting(JobOutboxContract::jobId)
                .containsExactly("k-2");
        assertThat(outbox.backlog(T0.plusSeconds(120)).waiting()).isOne();
    }

    /** The claim that ends a relay's claiming marks and claims as the usual one does, rows committed meanwhile too. */
    @Test
    void stoppingMarksTheBatchBeforeAndClaimsRowsCommittedMeanwhile() {
        commit(job("s-1", T0));
        outbox.keepClaiming("relay-1", Duration.ofMinutes(1));
        long first = outbox.claim(1, T0, T0.plusSeconds(30)).get(0).position();
        commit(job("s-2", T0));
        outbox.keepClaiming("relay-1", Duration.ofMinutes(1));

        assertThat(outbox.stopClaimingAndClaim("relay-1", List.of(first), T0.plusSeconds(60), 10,
                T0.plusSeconds(60), T0.plusSeconds(90))).extracting(JobOutboxContract::jobId).containsExactly("s-2");
        assertThat(outbox.stopClaimingAndClaim("relay-1", List.of(), T0.plusSeconds(120), 0, T0.plusSeconds(120),
                T0.plusSeconds(150))).as("claims none at 0, and stopping twice is no error").isEmpty();
        assertThat(outbox.backlog(T0.plusSeconds(120)).waiting()).isOne();
    }

    @Test
    void aNewTransportEpochMakesPublishedRowsWaitAgainOnce() {
        outbox.republishAfterLoss("epoch-1");
        commit(job("e-1", T0));
        outbox.markPublished(List.of(outbox.claim(1, T0, T0.plusSeconds(30)).get(0).position()), T0);

        assertThat(outbox.republishAfterLoss("epoch-1")).isZero();
        assertThat(outbox.republishAfterLoss("epoch-2")).isOne();
        assertThat(outbox.republishAfterLoss("epoch-2")).isZero();
        assertThat(outbox.backlog(T0).waiting()).isOne();
    }

    /** A job id is unique per queue: the end of the same id's job on another queue is not this row's job's end. */
    @Test
    void aRowIsForgottenOnlyOnceTheJobOfItsOwnQueueEnded() {
        outbox.republishAfterLoss("epoch-1");
        Job job = job("order-" + UUID.randomUUID(), T0);
        commit(job);
        outbox.markPublished(List.of(outbox.claim(1, T0, T0.plusSeconds(30)).get(0).position()), T0);
        end(job(OTHER_QUEUE, job.id().value(), T0));

        assertThat(outbox.forgetEnded(10)).isZero();
        assertThat(outbox.republishAfterLoss("epoch-2")).as("its job has not ended: Redis may have lost it").isOne();

        outbox.markPublished(List.of(outbox.claim(1, T0, T0.plusSeconds(30)).get(0).position()), T0);
        end(job);

        assertThat(outbox.republishAfterLoss("epoch-3")).isZero();
        assertThat(outbox.forgetEnded(10)).isOne();
    }

    private static String jobId(JobOutbox.Entry entry) {
        return ((JobOutbox.Entry.Ready) entry).job().id().value();
    }
}
