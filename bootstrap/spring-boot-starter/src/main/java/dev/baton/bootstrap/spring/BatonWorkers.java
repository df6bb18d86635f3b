package dev.baton.bootstrap.spring;

import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Setting;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.springframework.context.SmartLifecycle;

/**
 * The worker on {@code baton.worker.queues}, started once the context is refreshed (after every singleton, the
 * application's Flyway included) and stopped gracefully (within {@code baton.grace}) before the context's beans,
 * Baton and the {@code DataSource} among them, are destroyed.
 */
final class BatonWorkers implements SmartLifecycle {
    private final Baton baton;
    private final List<QueueName> queues;
    private final Optional<String> handler;
    private volatile Optional<RunningWorker> worker = Optional.empty();

    BatonWorkers(Baton baton, List<String> queues, Optional<String> handler) {
        this.baton = Objects.requireNonNull(baton, "baton");
        this.queues = queues.stream().map(BatonWorkers::queue).toList();
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    /** @throws ConfigException naming the property, when a queue's name is not one */
    private static QueueName queue(String name) {
        try {
            return QueueName.of(name);
        } catch (InvalidValueException e) {
            throw new ConfigException("baton.worker.queues=" + name + ": " + e.getMessage());
        }
    }

    /**
     * @throws ConfigException when there is no handler bean, or {@code baton.worker.handler} names none of them:
     *                         the context fails
     */
    @Override
    public synchronized void start() {
        if (worker.isEmpty() && !queues.isEmpty()) {
            worker = Optional.of(baton.start(new RunWorkerUseCase.Command(queues, baton.consumer(),
                    baton.config().get(Setting.CONCURRENCY), handler)));
        }
    }

    @Override
    public synchronized void stop() {
        worker.ifPresent(running -> running.stop(baton.config().get(Setting.GRACE)));
        worker = Optional.empty();
    }

    @Override
    public boolean isRunning() {
        return worker.isPresent();
    }
}
