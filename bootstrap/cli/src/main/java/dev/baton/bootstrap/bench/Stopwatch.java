package dev.baton.bootstrap.bench;

/** Time elapsed since {@link #start()}, from {@link System#nanoTime()}; never zero, since the bench divides by it. */
record Stopwatch(long began) {

    static Stopwatch start() {
        return new Stopwatch(System.nanoTime());
    }

    double seconds() {
        return seconds(System.nanoTime() - began);
    }

    static double seconds(long nanos) {
        return Math.max(1e-9, nanos / 1e9);
    }
}
