package dev.baton.application.testing;

import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import java.util.List;

/**
 * What one drain of a {@link BatonTestHarness} did, in the order it happened.
 *
 * @param completed    the jobs whose handler returned and whose completion committed and was acknowledged
 * @param retried      the failed attempts scheduled to run again, each job as it was when it failed
 * @param snoozed      the attempts whose handler snoozed, each job as it was when it snoozed
 * @param deadLettered what went to the dead letters: jobs that failed for good, and entries that were no job at all
 */
public record Drained(List<Job> completed, List<Job> retried, List<Job> snoozed, List<DeadLetter> deadLettered) {
    public Drained {
        completed = List.copyOf(completed);
        retried = List.copyOf(retried);
        snoozed = List.copyOf(snoozed);
        deadLettered = List.copyOf(deadLettered);
    }
}
