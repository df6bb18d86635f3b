package dev.baton.bootstrap.demo;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NamedJobHandler;
import java.util.Optional;

/** Demo: does nothing; measures Baton's own overhead (benchmarks, at-least-once mode). */
public final class NoopHandler implements NamedJobHandler {
    public static final String NAME = "noop";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> handle(JobContext context) {
        return Optional.empty();
    }
}
