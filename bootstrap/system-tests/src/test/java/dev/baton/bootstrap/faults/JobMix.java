package dev.baton.bootstrap.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The load a fault test enqueues: mostly jobs that succeed at once, some that fail transiently and succeed after
 * retries, some that fail every attempt (exhausted) and a share of poison jobs; handlers optionally work for a while
 * so that faults hit jobs in flight.
 *
 * @param transientShare  jobs that fail 1..maxAttempts-1 times, then succeed
 * @param exhaustedShare  jobs that fail every allowed attempt
 * @param poisonShare     poison jobs
 * @param minSleepMs      handlers work at least this many milliseconds
 * @param maxSleepMs      handlers work at most this many milliseconds (uniform in between)
 */
record JobMix(double transientShare, double exhaustedShare, double poisonShare, int minSleepMs, int maxSleepMs) {
    private enum Kind { FINE, TRANSIENT, EXHAUSTED, POISON }

    /** Handlers that work 0..{@code maxSleepMs} milliseconds. */
    JobMix(double transientShare, double exhaustedShare, double poisonShare, int maxSleepMs) {
        this(transientShare, exhaustedShare, poisonShare, 0, maxSleepMs);
    }

    /** Jobs that all succeed at the first attempt, quickly. */
    static JobMix plain() {
        return new JobMix(0, 0, 0, 0);
    }

    JobMix sleepingUpTo(int millis) {
        return new JobMix(transientShare, exhaustedShare, poisonShare, 0, millis);
    }

    JobMix sleepingExactly(int millis) {
        return new JobMix(transientShare, exhaustedShare, poisonShare, millis, millis);
    }

    /** Exactly the mix's share of each kind (rounded), in random order, so that small runs still have each kind. */
    List<JobSpec> generate(String prefix, int count, int maxAttempts, Random random) {
        int poison = (int) Math.round(count * poisonShare);
        int exhausted = (int) Math.round(count * exhaustedShare);
        int failing = maxAttempts > 1 ? (int) Math.round(count * transientShare) : 0;
        List<Kind> kinds = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            kinds.add(i < poison ? Kind.POISON : i < poison + exhausted ? Kind.EXHAUSTED
                    : i < poison + exhausted + failing ? Kind.TRANSIENT : Kind.FINE);
        }
        Collections.shuffle(kinds, random);
        List<JobSpec> jobs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String id = prefix + "-" + i;
            int sleepMs = minSleepMs + random.nextInt(maxSleepMs - minSleepMs + 1);
            jobs.add(switch (kinds.get(i)) {
                case POISON -> new JobSpec(id, 0, true, sleepMs);
                case EXHAUSTED -> new JobSpec(id, maxAttempts, false, sleepMs);
                case TRANSIENT -> new JobSpec(id, 1 + random.nextInt(maxAttempts - 1), false, sleepMs);
                case FINE -> new JobSpec(id, 0, false, sleepMs);
            });
        }
        return jobs;
    }

    static Path writeJsonLines(List<JobSpec> jobs, Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, jobs.stream().map(JobSpec::jsonLine).toList());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
