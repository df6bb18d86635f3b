package dev.baton.application.testing;

import dev.baton.application.port.out.JobOutbox;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Job;
import dev.baton.domain.OutboxBacklog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The outbox in memory, for tests: {@link #add} is a producer's committed enqueue, which wakes a waiting relay only
 * while none is claiming ({@link #keepClaiming}), as in PostgreSQL; a claiming relay's lease never lapses here. Jobs
 * for which the {@code ended} predicate holds have a terminal outcome (a job is its queue and id: the same id on
 * another queue is another job).
 */
public final class InMemoryJobOutbox implements JobOutbox {
    private final TreeMap<Long, Row> rows = new TreeMap<>();
    private final Set<String> claiming = new HashSet<>();
    private final Predicate<Job> ended;
    private long nextPosition = 1;
    private String epoch;
    private volatile boolean unavailable;

    public InMemoryJobOutbox(Predicate<Job> ended) {
        this.ended = Objects.requireNonNull(ended, "ended");
    }

    public InMemoryJobOutbox() {
        this(job -> false);
    }

    /** Test hook: while {@code down}, every call of the port throws {@link LedgerUnavailableException} at once. */
    public void setUnavailable(boolean down) {
        unavailable = down;
    }

    private void checkAvailable() {
        if (unavailable) {
            throw new LedgerUnavailableException("in-memory outbox is down (test hook)", null);
        }
    }

    /** A producer's transaction committed {@code job}; wakes a relay waiting for new rows unless one is claiming. */
    public synchronized void add(Job job) {
        rows.put(nextPosition++, new Row(job, null, null, false, null));
        wakeRelays();
    }

    private void wakeRelays() {
        if (claiming.isEmpty()) {
            notifyAll();
        }
    }


    /**
     * A committed row whose values are no job: its queue name as written, its values as raw fields, and the reason
     * the relay will find. @return its position
     */
    public synchronized long addMalformed(String queue, Map<String, String> fields, String reason) {
        long position = nextPosition++;
        rows.put(position, new Row(null, new Entry.Malformed(position, queue, fields, reason), null, false, null));
        wakeRelays();
        return position;
    }

    @Override
    public synchronized List<Entry> claim(int max, Instant now, Instant claimedUntil) {
        checkAvailable();
        List<Entry> claimed = new ArrayList<>();
        for (var row : rows.entrySet()) {
            Row value = row.getValue();
            if (claimed.size() == max) {
                break;
            }
            if (!value.published && value.malformed == null && value.waitingAt(now)) {
                row.setValue(value.claimedUntil(claimedUntil));
                claimed.add(value.job == null ? value.bad : new Entry.Ready(row.getKey(), value.job));
            }
        }
        return claimed;
    }

    @Override
    public synchronized void keepClaiming(String relay, Duration lease) {
        checkAvailable();
        claiming.add(relay);
    }

    @Override
    public synchronized List<Entry> stopClaimingAndClaim(String relay, Collection<Long> published, Instant at,
                                                         int max, Instant now, Instant claimedUntil) {
        checkAvailable();
        claiming.remove(relay);
        return markPublishedAndClaim(published, at, max, now, claimedUntil);
    }

    @Override
    public synchronized void markPublished(Collection<Long> positions, Instant at) {
        checkAvailable();
        positions.forEach(position -> rows.computeIfPresent(position, (p, row) -> row.published(true)));
    }

    @Override
    public synchronized void markMalformed(long position, String reason) {
        checkAvailable();
        rows.computeIfPresent(position, (p, row) -> new Row(row.job, row.bad, reason, false, null));
    }

    @Override
    public synchronized int republishAfterLoss(String transportEpoch) {
        checkAvailable();
        if (Objects.equals(epoch, transportEpoch)) {
            return 0;
        }
        epoch = transportEpoch;
        int republished = 0;
        for (var row : rows.entrySet()) {
            if (row.getValue().published && !ended.test(row.getValue().job)) {
                row.setValue(row.getValue().published(false));
                republished++;
            }
        }
        return republished;
    }

    @Override
    public synchronized int forgetEnded(int max) {
        checkAvailable();
        List<Long> forgotten = rows.entrySet().stream()
                .filter(row -> row.getValue().published && ended.test(row.getValue().job))
                .limit(max).map(Map.Entry::getKey).toList();
        forgotten.forEach(rows::remove);
        return forgotten.size();
    }

    @Override
    public synchronized OutboxBacklog backlog(Instant now) {
        checkAvailable();
        List<Row> waiting = rows.values().stream().filter(row -> !row.published && row.malformed == null).toList();
        Duration oldest = waiting.stream().filter(row -> row.job != null).findFirst()
                .map(row -> Duration.between(row.job.enqueuedAt(), now)).filter(age -> !age.isNegative())
                .orElse(Duration.ZERO);
        long malformed = rows.values().stream().filter(row -> row.malformed != null).count();
        return new OutboxBacklog(waiting.size(), oldest, malformed);
    }

    @Override
    public synchronized void awaitNewRows(Duration timeout) throws InterruptedException {
        checkAvailable();
        wait(Math.max(1, timeout.toMillis()));
    }

    /** @param bad a row added malformed, as claimed; {@code malformed} the reason once the relay marked it */
    private record Row(Job job, Entry.Malformed bad, String malformed, boolean published, Instant claimedUntil) {
        boolean waitingAt(Instant now) {
            return claimedUntil == null || !claimedUntil.isAfter(now);
        }

        Row claimedUntil(Instant until) {
            return new Row(job, bad, malformed, published, until);
        }

        Row published(boolean isPublished) {
            return new Row(job, bad, malformed, isPublished, null);
        }
    }
}
