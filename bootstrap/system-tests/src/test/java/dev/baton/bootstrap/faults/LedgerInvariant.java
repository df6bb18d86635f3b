package dev.baton.bootstrap.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** Checks the {@link Verdict} of a queue against the ledger (JDBC) and the queue's Redis keys (Lettuce). */
final class LedgerInvariant {
    /** The reason of a job that halted its worker too often: right only for a poison job. */
    private static final String POISON = "POISON";

    private final QueueProbe queue;
    private final LedgerProbe ledger;
    private final int maxAttempts;
    private final boolean crashOnPoison;

    LedgerInvariant(QueueProbe queue, LedgerProbe ledger, int maxAttempts, boolean crashOnPoison) {
        this.queue = queue;
        this.ledger = ledger;
        this.maxAttempts = maxAttempts;
        this.crashOnPoison = crashOnPoison;
    }

    /** The dead-lettered job ids and their reason (the last one, when a replay dead-lettered a job again). */
    Map<String, String> deadJobs() {
        Map<String, String> reasons = new HashMap<>();
        for (Map<String, String> letter : queue.deadLetters()) {
            Optional.ofNullable(letter.get(DeadLetterFields.JOB_ID)).ifPresent(id ->
                    reasons.put(id, letter.getOrDefault(DeadLetterFields.REASON, "")));
        }
        return reasons;
    }

    /** How many enqueued jobs reached an outcome (completed or dead), for progress and drain checks. */
    long settled(Collection<JobSpec> jobs) {
        Map<String, String> dead = deadJobs();
        long deadOfOurs = jobs.stream().filter(j -> dead.containsKey(j.jobId())).count();
        return ledger.completedCount() + deadOfOurs;
    }

    /**
     * The verdict for every job: its outcome in the ledger (completions; dead outcomes where the ledger records
     * them), its dead letters in Redis and its effects.
     */
    Verdict check(Collection<JobSpec> jobs) {
        Map<String, Integer> completions = ledger.completions();
        Map<String, String> deadInLedger = ledger.deadOutcomes();
        boolean ledgerRecordsDeaths = ledger.recordsOutcomes();
        Map<String, Integer> effects = ledger.effects();
        List<Map<String, String>> letters = queue.deadLetters();
        Map<String, String> deadLetters = new HashMap<>();
        long withoutReason = 0;
        for (Map<String, String> letter : letters) {
            String reason = letter.getOrDefault(DeadLetterFields.REASON, "");
            if (reason.isBlank()) {
                withoutReason++;
            }
            Optional.ofNullable(letter.get(DeadLetterFields.JOB_ID)).ifPresent(id -> deadLetters.put(id, reason));
        }
        List<String> lost = new ArrayList<>();
        List<String> duplicates = new ArrayList<>();
        List<String> both = new ArrayList<>();
        List<String> wrongFate = new ArrayList<>();
        List<String> innocentPoison = new ArrayList<>();
        List<String> contradicted = new ArrayList<>();
        Map<String, Integer> deadByReason = new TreeMap<>();
        int completed = 0;
        for (JobSpec job : jobs) {
            String id = job.jobId();
            boolean isCompleted = completions.getOrDefault(id, 0) > 0;
            int effectCount = effects.getOrDefault(id, 0);
            String letter = deadLetters.get(id);
            String reason = deadInLedger.getOrDefault(id, letter);
            Optional<String> expectedDeath = job.expectedDeath(maxAttempts, crashOnPoison);
            if (isCompleted) {
                completed++;
            }
            if (reason != null) {
                deadByReason.merge(reason, 1, Integer::sum);
            }
            if (!isCompleted && reason == null) {
                lost.add(id);
            }
            if (isCompleted && reason != null) {
                both.add(id);
            }
            if (ledgerRecordsDeaths && !isCompleted && !Objects.equals(deadInLedger.get(id), letter)) {
                contradicted.add(id + "(ledger " + deadInLedger.getOrDefault(id, "not dead") + ", dead letter "
                        + (letter == null ? "none" : letter) + ")");
            }
            if (effectCount > 1 || effectCount != (isCompleted ? 1 : 0)) {
                duplicates.add(id + "(effects=" + effectCount + ", completed=" + isCompleted + ")");
            }
            // POISON is right for any poison job: one that faults cut short may reach the delivery limit before it
            // fails by itself; for any other job it means faults were blamed on it
            if (POISON.equals(reason) && !job.poison()) {
                innocentPoison.add(id);
            } else if (isCompleted && expectedDeath.isPresent()) {
                wrongFate.add(id + "(completed, expected " + expectedDeath.get() + ")");
            } else if (reason != null && expectedDeath.isEmpty()) {
                wrongFate.add(id + "(dead " + reason + ", expected to complete)");
            } else if (reason != null && !reason.equals(expectedDeath.get()) && !POISON.equals(reason)) {
                wrongFate.add(id + "(dead " + reason + ", expected " + expectedDeath.get() + ")");
            }
        }
        return new Verdict(jobs.size(), completed, deadByReason, letters.size(), lost, duplicates, both,
                withoutReason, wrongFate, innocentPoison, contradicted, queue.pending(), queue.delayed(),
                !queue.allDelivered());
    }
}
