package dev.baton.application.testing;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.InvalidValueException;
import java.util.Arrays;
import java.util.stream.Stream;

/** The job-thread choices a test can run with; CI runs the suite on Java 17 and 25, so each kind is exercised. */
public final class JobThreadChoices {
    private JobThreadChoices() {
    }

    /** Every choice this runtime honours: virtual threads only on Java 21+. For {@code @MethodSource}. */
    public static Stream<JobThreads> ofThisRuntime() {
        return Arrays.stream(JobThreads.values()).filter(JobThreadChoices::honoured);
    }

    private static boolean honoured(JobThreads choice) {
        try {
            choice.resolve(1);
            return true;
        } catch (InvalidValueException e) {
            return false;
        }
    }
}
