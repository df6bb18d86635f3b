package dev.baton.bootstrap.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * @param maxSleepMs      handlers work 0..maxSleepMs milliseconds (uniform)
 */
record JobMix(double transientShare, double exhaustedShare, double poisonShare, int maxSleepMs) {

    /** Jobs that all succeed at the first attempt, quickly. */
    static JobMix plain() {
        return new JobMix(0, 0, 0, 0);
    }

    JobMix sleepingUpTo(int millis) {
        return new JobMix(transientShare, exhaustedShare, poisonShare, millis);
    }

    List<JobSpec> generate(String prefix, int count, int maxAttempts, Random random) {
        List<JobSpec> jobs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            double roll = random.nextDouble();
            int sleepMs = maxSleepMs == 0 ? 0 : random.nextInt(maxSleepMs + 1);
            String id = prefix + "-" + i;
            if (roll < poisonShare) {
                jobs.add(new JobSpec(id, 0, true, sleepMs));
            } else if (roll < poisonShare + exhaustedShare) {
                jobs.add(new JobSpec(id, maxAttempts, false, sleepMs));
            } else if (roll < poisonShare + exhaustedShare + transientShare && maxAttempts > 1) {
                jobs.add(new JobSpec(id, 1 + random.nextInt(maxAttempts - 1), false, sleepMs));
            } else {
                jobs.add(new JobSpec(id, 0, false, sleepMs));
            }
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
