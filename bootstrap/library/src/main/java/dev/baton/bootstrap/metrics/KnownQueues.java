package dev.baton.bootstrap.metrics;

import dev.baton.domain.QueueName;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/** The queues this process reports on: the configured {@code BATON_QUEUES} plus the queues its worker consumes. */
public final class KnownQueues {
    private final Set<String> names = new ConcurrentSkipListSet<>();

    public KnownQueues(Collection<QueueName> configured) {
        add(configured);
    }

    public void add(Collection<QueueName> queues) {
        queues.forEach(queue -> names.add(queue.value()));
    }

    public List<QueueName> all() {
        return names.stream().map(QueueName::of).toList();
    }
}
