package dev.baton.bootstrap.faults;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * How big a run is. {@code verify} runs the bounded defaults; the soak profile ({@code -Psoak}) scales them up to
 * {@code -Dbaton.faults.jobs=100000 -Dbaton.faults.minutes=30} (or {@code BATON_FAULTS_JOBS} /
 * {@code BATON_FAULTS_MINUTES}); {@code baton.faults.seed} replays a run.
 */
final class SoakSize {

    private SoakSize() {
    }

    /** Jobs of the combined soak. */
    static int jobs(int ciDefault) {
        return setting("baton.faults.jobs").map(Integer::parseInt).orElse(ciDefault);
    }

    /** Jobs for one single-fault test: its CI size, scaled by how much bigger than CI the soak asked to be. */
    static int scaled(int ciJobs) {
        return setting("baton.faults.jobs").map(Integer::parseInt)
                .map(soak -> Math.max(ciJobs, soak / 10)).orElse(ciJobs);
    }

    /** How long the combined soak keeps injecting faults. */
    static Duration minutes(Duration ciDefault) {
        return setting("baton.faults.minutes").map(m -> Duration.ofSeconds(Math.round(Double.parseDouble(m) * 60)))
                .orElse(ciDefault);
    }

    static long seed() {
        return setting("baton.faults.seed").map(Long::parseLong).orElseGet(System::nanoTime);
    }

    private static Optional<String> setting(String property) {
        String env = "BATON_FAULTS_" + property.substring("baton.faults.".length()).toUpperCase(Locale.ROOT);
        // failsafe passes the pom's empty default as a blank property: that leaves the choice to the environment
        return Optional.ofNullable(System.getProperty(property)).filter(v -> !v.isBlank())
                .or(() -> Optional.ofNullable(System.getenv(env)).filter(v -> !v.isBlank()));
    }
}
