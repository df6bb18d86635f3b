package dev.baton.bootstrap.faults;

import java.util.List;
import java.util.Map;

/**
 * The ledger invariant, checked for every enqueued job id: completed (one completion, one effect) or dead-lettered
 * with the reason its kind calls for (no completion, no effect); never both, never neither; POISON only for a poison
 * job; where the ledger records dead outcomes, Redis's dead letters agree with it; nothing left pending, delayed or
 * undelivered.
 *
 * @param jobs              job ids enqueued
 * @param completed         job ids the ledger records as completed
 * @param deadByReason      job ids dead, per reason (the ledger's where it records dead outcomes, else the dead
 *                          letter's)
 * @param deadLetterEntries dead-letter entries (more than job ids when a replay dead-letters a job again)
 * @param lost              job ids neither completed nor dead
 * @param duplicateEffects  job ids with more than one effect, or an effect without a completion
 * @param completedAndDead  job ids completed in the ledger and dead (a dead letter, or a dead outcome)
 * @param deadWithoutReason dead-letter entries without a reason
 * @param wrongFate         job ids whose outcome contradicts their kind (e.g. a poison job completed)
 * @param innocentPoison    job ids dead as POISON that are not poison (they merely shared a worker with faults)
 * @param contradicted      job ids whose dead letter in Redis (or its absence) contradicts the ledger's outcome
 * @param pending           entries left in the group's pending list
 * @param delayed           jobs left in the delayed set
 * @param undelivered       true when entries were left undelivered in the stream
 */
record Verdict(int jobs, int completed, Map<String, Integer> deadByReason, long deadLetterEntries, List<String> lost,
               List<String> duplicateEffects, List<String> completedAndDead, long deadWithoutReason,
               List<String> wrongFate, List<String> innocentPoison, List<String> contradicted, long pending,
               long delayed, boolean undelivered) {

    int dead() {
        return deadByReason.values().stream().mapToInt(Integer::intValue).sum();
    }

    boolean holds() {
        return lost.isEmpty() && duplicateEffects.isEmpty() && completedAndDead.isEmpty() && deadWithoutReason == 0
                && wrongFate.isEmpty() && innocentPoison.isEmpty() && contradicted.isEmpty() && pending == 0
                && delayed == 0 && !undelivered;
    }

    String summary(String run, FaultTally faults, long seed) {
        return "[faults] " + run + ": jobs=" + jobs + " faults=" + faults + " completed=" + completed
                + " dead=" + dead() + " " + deadByReason + " lost=" + lost.size() + " duplicate-effects="
                + duplicateEffects.size() + " completed-and-dead=" + completedAndDead.size() + " wrong-fate="
                + wrongFate.size() + " innocent-poison=" + innocentPoison.size() + " ledger-contradicted="
                + contradicted.size() + " pending=" + pending + " delayed=" + delayed + " undelivered="
                + undelivered + " seed=" + seed;
    }

    /** The details an engineer needs to start looking, a few ids of each kind. */
    String details() {
        return "lost " + sample(lost) + "; duplicate effects " + sample(duplicateEffects) + "; completed and dead "
                + sample(completedAndDead) + "; wrong fate " + sample(wrongFate) + "; innocent POISON "
                + sample(innocentPoison) + "; dead letters contradicting the ledger " + sample(contradicted)
                + "; dead letters without reason " + deadWithoutReason;
    }

    private static List<String> sample(List<String> ids) {
        return ids.subList(0, Math.min(20, ids.size()));
    }
}
