package dev.baton.bootstrap.wiring;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Everything a Baton instance opened (adapters, servers, schedulers), closed in reverse order of opening. */
public final class Closer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Closer.class);
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    public synchronized <T extends AutoCloseable> T register(T resource) {
        resources.push(resource);
        return resource;
    }

    @Override
    public synchronized void close() {
        while (!resources.isEmpty()) {
            AutoCloseable resource = resources.pop();
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("close failed resource={} error={}", resource.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
