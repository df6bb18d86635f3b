package dev.baton.bootstrap.wiring;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.domain.QueueName;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Collects the handlers a worker can run, from three places: those given by name ({@code handler(name, ...)}), the
 * named handlers given as a collection ({@code handlers(...)}), and {@link ServiceLoader} over a class loader (plugin
 * jars). A name given twice is a configuration error.
 */
public final class HandlerRegistry {
    private HandlerRegistry() {
    }

    /**
     * Refuses a worker that could run no job: one without any handler, or one told to run untyped jobs under a
     * {@code handler} that does not exist. A queue needs no handler of its own name: a worker runs every job whose
     * type it has a handler for, whatever the queue (docs/HANDLERS.md#registering-a-handler). Checked before a worker
     * starts, by the CLI, the embedding API and the Spring starter alike.
     */
    public static void requireHandlers(JobHandlers handlers, List<QueueName> queues, Optional<String> handler) {
        if (handler.isPresent() && handlers.find(handler.get()).isEmpty()) {
            throw new ConfigException("unknown handler '" + handler.get() + "'; known handlers: "
                    + String.join(", ", new TreeSet<>(handlers.names())));
        }
        if (handlers.names().isEmpty()) {
            throw new ConfigException("no handler is registered, so a worker on " + queues + " could run no job:"
                    + " register one named like its jobs' type (or, for untyped jobs, like the queue)");
        }
    }

    /**
     * Every handler, by name.
     *
     * @throws ConfigException when two handlers of different classes share a name
     */
    static JobHandlers collect(Map<String, JobHandler> byName, List<NamedJobHandler> named, ClassLoader loader) {
        Map<String, JobHandler> all = new HashMap<>(byName);
        named.forEach(handler -> add(all, handler.name(), handler));
        ServiceLoader.load(NamedJobHandler.class, loader).forEach(handler -> add(all, handler.name(), handler));
        return JobHandlers.of(all);
    }

    private static void add(Map<String, JobHandler> all, String name, JobHandler handler) {
        JobHandler previous = all.putIfAbsent(name, handler);
        if (previous != null && previous.getClass() != handler.getClass()) {
            throw new ConfigException("two handlers are named '" + name + "': " + previous.getClass().getName()
                    + " and " + handler.getClass().getName());
        }
    }
}
