package dev.baton.application.port.out;

import dev.baton.domain.Job;
import dev.baton.domain.OutboxBacklog;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The transactional outbox, as the relay sees it: jobs that producers enqueued in their own transactions, visible
 * once those committed. Each call is its own short transaction, never held across a call to the transport: the relay
 * claims rows, publishes them, then marks them published. Implementations report their own failure as
 * {@link LedgerUnavailableException}.
 */
public interface JobOutbox {

    /**
     * Claims up to {@code max} of the oldest unpublished rows that no other relay holds at {@code now}, skipping rows
     * another relay is claiming at the same moment; none of them is claimed again before {@code claimedUntil}.
     *
     * @return the claimed rows in the order they were enqueued
     */
    List<Entry> claim(int max, Instant now, Instant claimedUntil);

    /** Marks these rows published at {@code at}: they stay known until their job's terminal outcome commits. */
    void markPublished(Collection<Long> positions, Instant at);

    /**
     * Marks the rows {@code published} published at {@code at} ({@link #markPublished}), then claims as
     * {@link #claim} does: a relay that published a batch marks it in the round trip that claims the next one. A
     * failure marks none and claims none: the unmarked rows come back once their claim expires.
     *
     * @return the claimed rows in the order they were enqueued
     */
    default List<Entry> markPublishedAndClaim(Collection<Long> published, Instant at, int max, Instant now,
                                              Instant claimedUntil) {
        if (!published.isEmpty()) {
            markPublished(published, at);
        }
        return claim(max, now, claimedUntil);
    }

    /**
     * Marks {@code relay} claiming for {@code lease}: producers' commits meanwhile do not wake the relays
     * ({@link #awaitNewRows}), since this one claims again until a claim finds nothing and then calls
     * {@link #stopClaimingAndClaim}. It spares each commit a wake-up, which the database may serialize (PostgreSQL's
     * {@code NOTIFY} does); a relay that dies claiming stops counting once the lease lapsed. Called again before the
     * lease lapses, it extends it.
     */
    void keepClaiming(String relay, Duration lease);

    /**
     * Ends {@link #keepClaiming} for {@code relay}, then marks and claims as {@link #markPublishedAndClaim} does, once
     * every commit that found {@code relay} claiming has ended: each row committed while it was claiming is in this
     * claim, or in one before it, or its commit woke the relays.
     *
     * @return the claimed rows in the order they were enqueued
     */
    List<Entry> stopClaimingAndClaim(String relay, Collection<Long> published, Instant at, int max, Instant now,
                                     Instant claimedUntil);

    /**
     * Marks a row that cannot be published (dead-lettered MALFORMED, when its queue name is valid): no relay claims it
     * again, and it stays counted in {@link OutboxBacklog#malformed}.
     */
    void markMalformed(long position, String reason);

    /**
     * Records the transport's epoch ({@link TransportMemory}); when it differs from the one recorded before, the
     * transport may have lost jobs, and every published row whose job has no terminal outcome becomes unpublished, to
     * be claimed and published again. Of relays seeing the same change, one republishes.
     *
     * @return how many rows are to be published again (0 while the epoch stays the same)
     */
    int republishAfterLoss(String transportEpoch);

    /**
     * Forgets up to {@code max} published rows whose job has a terminal outcome. It may look at a window of the rows
     * only (the next {@code max} after where the last call stopped, say), so that a call costs the same however many
     * rows wait for their jobs to end: the rows it did not look at are forgotten by later calls.
     *
     * @return how many it forgot
     */
    int forgetEnded(int max);

    /**
     * Returns once a producer committed new rows while no relay was claiming ({@link #keepClaiming}), or after
     * {@code timeout}, whichever comes first.
     */
    void awaitNewRows(Duration timeout) throws InterruptedException;

    /**
     * What is in the outbox at {@code now}: rows waiting to be published, how long the oldest has waited, rows marked
     * malformed. One indexed read, for gauges refreshed on a schedule, never per job.
     */
    OutboxBacklog backlog(Instant now);

    /** A claimed row: a job to publish, or one that cannot become a job. */
    sealed interface Entry {
        long position();

        record Ready(long position, Job job) implements Entry {
        }

        /**
         * @param queue  the row's queue name as written (it may be the invalid value)
         * @param fields the row's values as a stream entry's raw fields: {@code job_id}, {@code payload}, {@code type},
         *               {@code enqueued_at} and its headers, each when the row has it
         * @param reason why the row is no job (an invalid queue name or job id, for example)
         */
        record Malformed(long position, String queue, Map<String, String> fields, String reason) implements Entry {
            public Malformed {
                fields = Map.copyOf(fields);
            }
        }
    }
}
