package dev.baton.application.port.in;

/**
 * What a worker did since it started.
 *
 * @param completed    effects committed (or jobs finished, without a ledger) and acknowledged
 * @param duplicates   deliveries of jobs that had already completed: acknowledged without committing again
 * @param retried      failed attempts scheduled to run again
 * @param deadLettered jobs moved to the dead letters (malformed entries and poison included)
 * @param reclaimed    entries taken over from consumers that went silent
 * @param leasesLost   running jobs whose lease another consumer took; their outcome was not acknowledged
 * @param running      jobs running now
 * @param isolated     suspects (deliveries of jobs that a silent worker held) run isolated, alone in the worker
 * @param suspects     suspects held now: waiting for the worker's other jobs to finish, or running alone (at most one)
 * @param snoozed      jobs whose handler asked to run them again later, without spending an attempt
 */
public record WorkerCounters(long completed, long duplicates, long retried, long deadLettered, long reclaimed,
                             long leasesLost, int running, long isolated, int suspects, long snoozed,
                             long cancelled) {
}
