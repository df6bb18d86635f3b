package dev.baton.bootstrap.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Checks the {@link Verdict} of a queue against the ledger (JDBC) and the queue's Redis keys (Lettuce). */
final class LedgerInvariant {
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

    Verdict check(Collection<JobSpec> jobs) {
        Map<String, Integer> completions = ledger.completions();
        Map<String, Integer> effects = ledger.effects();
        List<Map<String, String>> letters = queue.deadLetters();
        Map<String, String> dead = new HashMap<>();
        long withoutReason = 0;
        for (Map<String, String> letter : letters) {
            String reason = letter.getOrDefault(DeadLetterFields.REASON, "");
            if (reason.isBlank()) {
                withoutReason++;
            }
            Optional.ofNullable(letter.get(DeadLetterFields.JOB_ID)).ifPresent(id -> dead.put(id, reason));
        }
        List<String> lost = new ArrayList<>();
        List<String> duplicates = new ArrayList<>();
        List<String> both = new ArrayList<>();
        List<String> wrongFate = new ArrayList<>();
        Map<String, Integer> deadByReason = new TreeMap<>();
        int completed = 0;
        int collateralPoison = 0;
        for (JobSpec job : jobs) {
            String id = job.jobId();
            boolean isCompleted = completions.getOrDefault(id, 0) > 0;
            int effectCount = effects.getOrDefault(id, 0);
            String reason = dead.get(id);
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
            if (effectCount > 1 || effectCount != (isCompleted ? 1 : 0)) {
                duplicates.add(id + "(effects=" + effectCount + ", completed=" + isCompleted + ")");
            }
            if (isCompleted && expectedDeath.isPresent()) {
                wrongFate.add(id + "(completed, expected " + expectedDeath.get() + ")");
            } else if (reason != null && expectedDeath.isEmpty()) {
                if (reason.equals("POISON")) {
                    collateralPoison++;
                } else {
                    wrongFate.add(id + "(dead " + reason + ", expected to complete)");
                }
            } else if (reason != null && !acceptable(reason, expectedDeath.get())) {
                wrongFate.add(id + "(dead " + reason + ", expected " + expectedDeath.get() + ")");
            }
        }
        return new Verdict(jobs.size(), completed, deadByReason, letters.size(), lost, duplicates, both,
                withoutReason, wrongFate, collateralPoison, queue.pending(), queue.delayed(), !queue.allDelivered());
    }

    /** A job that faults also cut short may reach the delivery limit before it fails for its own reason. */
    private static boolean acceptable(String reason, String expected) {
        return reason.equals(expected) || reason.equals("POISON");
    }
}
