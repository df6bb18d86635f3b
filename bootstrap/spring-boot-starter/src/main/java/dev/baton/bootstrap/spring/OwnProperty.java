package dev.baton.bootstrap.spring;

import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * The starter's own properties, beside one per setting ({@link PropertySettings}): what the context runs. The IDE
 * metadata lists them with the settings' properties.
 */
enum OwnProperty {
    WORKER_ENABLED("baton.worker.enabled", "java.lang.Boolean", "true",
            "Whether the context runs a worker on baton.worker.queues; false for producer-only services."),
    WORKER_QUEUES("baton.worker.queues", "java.util.List<java.lang.String>", "",
            "The queues the worker consumes, with baton.concurrency jobs at once."),
    WORKER_HANDLER("baton.worker.handler", "java.lang.String", "",
            "The handler that runs the queues' untyped jobs; unset, each queue's handler bean is named like the queue."
                    + " A typed job always runs under the handler of its type."),
    SCHEDULES("baton.schedules", "java.util.List<java.lang.String>", "",
            "Periodic jobs, one per element in a schedules file's format: \"name | schedule | queue | payload\", fired"
                    + " while the context runs a worker."),
    SCHEDULES_FILE("baton.schedules-file", "java.lang.String", "",
            "A schedules file (one \"name | schedule | queue | payload\" per line), fired while the context runs a"
                    + " worker.");

    final String property;
    final String type;
    /** Empty for none. */
    final String defaultValue;
    final String description;

    OwnProperty(String property, String type, String defaultValue, String description) {
        this.property = property;
        this.type = type;
        this.defaultValue = defaultValue;
        this.description = description;
    }

    List<String> list(Binder binder) {
        return binder.bind(property, Bindable.listOf(String.class)).orElse(List.of());
    }

    Optional<String> text(Binder binder) {
        return Optional.ofNullable(binder.bind(property, String.class).orElse(null));
    }
}
