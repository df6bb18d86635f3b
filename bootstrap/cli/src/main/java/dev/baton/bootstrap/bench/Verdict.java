package dev.baton.bootstrap.bench;

import dev.baton.application.port.out.EffectRecords;
import dev.baton.domain.QueueStats;
import java.util.Optional;

/**
 * Whether each job of a run had its effect exactly once ({@code exactly_once}), and what was counted to say so
 * ({@code checked}). Always: the worker saw each job complete once (no retry, no redelivery), and afterwards the queue
 * holds nothing pending, undelivered, delayed or dead. With the ledger, also: it holds one completion per job; and
 * with a handler that leaves a row per effect, one row per job, of as many distinct jobs (an effect that ran twice
 * shows as two rows of one job).
 *
 * @param exactlyOnce every check passed
 * @param checked     what was counted, in words
 */
record Verdict(boolean exactlyOnce, String checked) {

    /** Without a ledger nothing remembers an effect: "once" is what the worker observed. */
    static Verdict atLeastOnce(boolean eachCompletedOnce, QueueStats queue) {
        return new Verdict(eachCompletedOnce && drained(queue), "each job's handler completed once (no retry, no "
                + "redelivery), all acknowledged, none pending/delayed/dead");
    }

    /**
     * @param jobs              jobs the run enqueued
     * @param eachCompletedOnce the worker saw each of them complete exactly once
     * @param queue             the queue after the worker stopped
     * @param ledgerRows        the ledger's completions of the queue
     * @param effects           the rows the handler's effects left for the run's jobs; empty for a handler without
     */
    static Verdict exactlyOnce(int jobs, boolean eachCompletedOnce, QueueStats queue, long ledgerRows,
                               Optional<EffectRecords.Count> effects) {
        boolean once = eachCompletedOnce && drained(queue) && ledgerRows == jobs
                && effects.map(count -> count.oncePerJob(jobs)).orElse(true);
        return new Verdict(once, "ledger rows " + ledgerRows
                + effects.map(count -> ", " + count.table() + " rows " + count.rows() + " (" + count.distinctJobs()
                        + " distinct jobs)").orElse("")
                + ", each job committed once, none pending/delayed/dead");
    }

    private static boolean drained(QueueStats queue) {
        return queue.pending() == 0 && queue.lag().orElse(0) == 0 && queue.dead() == 0 && queue.delayed() == 0;
    }
}
