package dev.baton.application.service.worker;

import dev.baton.application.port.out.JobLeases;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of the worker's queues an operator paused, as the fetcher last read them: once at start, then once a
 * {@link #CHECK_INTERVAL}, on the fetcher's own thread between two leases, whose blocking reads end by the next read
 * ({@link #blockUntilNextCheck}): a worker leases nothing from a queue a check interval after it was paused. Reading
 * it is one cheap request for all the queues, not one per lease. Only the fetcher (or an inline worker) refreshes it;
 * {@code RunningWorker.pausedQueues()} reads it from other threads.
 */
final class PausedQueues {
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Duration MIN_BLOCK = Duration.ofMillis(1);
    private static final Logger LOG = LoggerFactory.getLogger(PausedQueues.class);

    private final JobLeases leases;
    private final List<QueueName> queues;
    private final ConsumerName consumer;
    private volatile Set<QueueName> paused = Set.of();
    private long checkedAt = System.nanoTime();

    PausedQueues(JobLeases leases, List<QueueName> queues, ConsumerName consumer) {
        this.leases = leases;
        this.queues = List.copyOf(queues);
        this.consumer = consumer;
    }

    /** Reads the pauses now. @throws RuntimeException the transport's failure; the last known pauses stay */
    void refresh() {
        checkedAt = System.nanoTime();
        Set<QueueName> now = Set.copyOf(leases.paused(queues));
        Set<QueueName> before = paused;
        if (!now.equals(before)) {
            report("paused, leasing nothing from it", now, before);
            report("resumed, leasing again", before, now);
            paused = now;
        }
    }

    /** Refreshes when the last read is a {@link #CHECK_INTERVAL} old; a failure is logged and tried again then. */
    void refreshIfDue() {
        if (System.nanoTime() - checkedAt < CHECK_INTERVAL.toNanos()) {
            return;
        }
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.warn("reading paused queues failed, keeping the last known consumer={} paused={}: {}", consumer,
                    paused, e.toString());
        }
    }

    boolean isPaused(QueueName queue) {
        return paused.contains(queue);
    }

    boolean allPaused() {
        return paused.size() == queues.size();
    }

    Set<QueueName> current() {
        return paused;
    }

    /**
     * {@code block}, cut short where the next read is due (never below a millisecond, a transport's shortest wait):
     * a blocking read that began before a pause ends before the read that sees it, and leases nothing after it.
     */
    Duration blockUntilNextCheck(Duration block) {
        long untilCheck = CHECK_INTERVAL.toNanos() - (System.nanoTime() - checkedAt);
        return untilCheck >= block.toNanos() ? block : Duration.ofNanos(Math.max(MIN_BLOCK.toNanos(), untilCheck));
    }

    /** Waits until the next read is due: nothing is to be leased before, every queue being paused. */
    void awaitNextCheck() throws InterruptedException {
        long remaining = CHECK_INTERVAL.toNanos() - (System.nanoTime() - checkedAt);
        if (remaining > 0) {
            Thread.sleep(remaining / 1_000_000, (int) (remaining % 1_000_000));
        }
    }

    private void report(String what, Set<QueueName> in, Set<QueueName> notIn) {
        Set<QueueName> changed = new HashSet<>(in);
        changed.removeAll(notIn);
        changed.forEach(queue -> LOG.info("queue {} consumer={} queue={}", what, consumer, queue));
    }
}
