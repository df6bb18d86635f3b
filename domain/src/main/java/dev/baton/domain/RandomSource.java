package dev.baton.domain;

/** Uniform random numbers in [0, 1), injected so that jitter is deterministic in tests. */
@FunctionalInterface
public interface RandomSource {
    double nextDouble();
}
