package dev.baton.application.handler;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The handlers a worker can run, by name. */
public final class JobHandlers {
    private final Map<String, JobHandler> byName;

    private JobHandlers(Map<String, JobHandler> byName) {
        this.byName = Map.copyOf(byName);
    }

    public static JobHandlers of(Map<String, JobHandler> byName) {
        return new JobHandlers(byName);
    }

    public Optional<JobHandler> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public Set<String> names() {
        return byName.keySet();
    }
}
