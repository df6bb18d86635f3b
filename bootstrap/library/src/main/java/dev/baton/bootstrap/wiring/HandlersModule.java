package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.Multibinder;
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
import java.util.Set;
import java.util.TreeSet;

/**
 * Collects the handlers a worker can run, from three places: {@code MapBinder<String, JobHandler>} entries and
 * {@code Multibinder<NamedJobHandler>} entries of other modules, and {@link ServiceLoader} over {@code loader}
 * (plugin jars). A name given twice is a configuration error.
 */
public final class HandlersModule extends AbstractModule {
    private final ClassLoader loader;

    public HandlersModule(ClassLoader loader) {
        this.loader = loader;
    }

    /** Registers {@code handler} under {@code name} from any module. */
    public static void bind(Binder binder, String name, JobHandler handler) {
        MapBinder.newMapBinder(binder, String.class, JobHandler.class).addBinding(name).toInstance(handler);
    }

    /**
     * Refuses a worker that would dead-letter every job of a queue for want of a handler: {@code handler}, when
     * given, must exist; otherwise each queue needs a handler of its own name. Checked before a worker starts, by the
     * CLI and the embedding API alike.
     */
    public static void requireHandlers(JobHandlers handlers, List<QueueName> queues, Optional<String> handler) {
        String known = String.join(", ", new TreeSet<>(handlers.names()));
        if (handler.isPresent()) {
            if (handlers.find(handler.get()).isEmpty()) {
                throw new ConfigException("unknown handler '" + handler.get() + "'; known handlers: " + known);
            }
            return;
        }
        for (QueueName queue : queues) {
            if (handlers.find(queue.value()).isEmpty()) {
                throw new ConfigException("no handler is named like queue '" + queue + "': register one by that"
                        + " name, or name the handler to run (--handler NAME) (known handlers: " + known + ")");
            }
        }
    }

    @Override
    protected void configure() {
        MapBinder.newMapBinder(binder(), String.class, JobHandler.class);
        Multibinder.newSetBinder(binder(), NamedJobHandler.class);
    }

    @Provides
    @Singleton
    JobHandlers handlers(Map<String, JobHandler> byName, Set<NamedJobHandler> named) {
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
