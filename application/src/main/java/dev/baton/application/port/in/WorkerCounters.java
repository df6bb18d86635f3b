package dev.baton.application.port.in;

/**
 * What a worker did since it started.
 *
 * @param completed    effects committed (or jobs finished, without a ledger) and acknowledged
 * @param duplicates   deliveries of jobs that had already completed: acknowledged without committing again
 * @param retried      failed attempts scheduled to run again
 * @param snoozed      jobs whose handler asked to run them again later, without spending an attempt
 * @param deadLettered jobs moved to the dead letters (malformed entries and poison included)
 * @param reclaimed    entries taken over from consumers that went silent
 * @param leasesLost   running jobs whose lease another consumer took; their outcome was not acknowledged
 * @param running      jobs running now
 */
public record WorkerCounters(long completed, long duplicates, long retried, long snoozed, long deadLettered,
                             long reclaimed, long leasesLost, int running) {
}
