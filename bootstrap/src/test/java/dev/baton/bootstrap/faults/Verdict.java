package dev.baton.bootstrap.faults;

import java.util.List;
import java.util.Map;

/**
 * The ledger invariant, checked for every enqueued job id: completed (one completion row, one effect) or
 * dead-lettered with a reason (no completion row, no effect); never both, never neither; nothing left pending,
 * delayed or undelivered.
 *
 * @param jobs              job ids enqueued
 * @param completed         job ids with a completion row
 * @param deadByReason      job ids dead-lettered, per reason
 * @param deadLetterEntries dead-letter entries (more than job ids when a replay dead-letters a job again)
 * @param lost              job ids neither completed nor dead-lettered
 * @param duplicateEffects  job ids with more than one effect, or an effect without a completion row
 * @param completedAndDead  job ids both completed and dead-lettered
 * @param deadWithoutReason dead-letter entries without a reason
 * @param wrongFate         job ids whose outcome contradicts their kind (e.g. a poison job completed)
 * @param collateralPoison  jobs that would have completed but were dead-lettered as POISON because faults cut
 *                          their deliveries short too often (allowed: the delivery limit says so)
 * @param pending           entries left in the group's pending list
 * @param delayed           jobs left in the delayed set
 * @param undelivered       true when entries were left undelivered in the stream
 */
record Verdict(int jobs, int completed, Map<String, Integer> deadByReason, long deadLetterEntries, List<String> lost,
               List<String> duplicateEffects, List<String> completedAndDead, long deadWithoutReason,
               List<String> wrongFate, int collateralPoison, long pending, long delayed, boolean undelivered) {

    int dead() {
        return deadByReason.values().stream().mapToInt(Integer::intValue).sum();
    }

    boolean holds() {
        return lost.isEmpty() && duplicateEffects.isEmpty() && completedAndDead.isEmpty() && deadWithoutReason == 0
                && wrongFate.isEmpty() && pending == 0 && delayed == 0 && !undelivered;
    }

    String summary(String run, FaultTally faults, long seed) {
        return "[faults] " + run + ": jobs=" + jobs + " faults=" + faults + " completed=" + completed
                + " dead=" + dead() + " " + deadByReason + (collateralPoison > 0 ? " (collateral POISON="
                + collateralPoison + ")" : "") + " lost=" + lost.size() + " duplicate-effects="
                + duplicateEffects.size() + " completed-and-dead=" + completedAndDead.size() + " wrong-fate="
                + wrongFate.size() + " pending=" + pending + " delayed=" + delayed + " undelivered=" + undelivered
                + " seed=" + seed;
    }

    /** The details an engineer needs to start looking, a few ids of each kind. */
    String details() {
        return "lost " + sample(lost) + "; duplicate effects " + sample(duplicateEffects) + "; completed and dead "
                + sample(completedAndDead) + "; wrong fate " + sample(wrongFate) + "; dead letters without reason "
                + deadWithoutReason;
    }

    private static List<String> sample(List<String> ids) {
        return ids.subList(0, Math.min(20, ids.size()));
    }
}
