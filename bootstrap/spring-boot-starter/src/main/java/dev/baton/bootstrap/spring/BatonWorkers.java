package dev.baton.bootstrap.spring;

import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
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

    BatonWorkers(Baton baton, BatonProperties.Worker properties) {
        this.baton = Objects.requireNonNull(baton, "baton");
        this.queues = properties.getQueues().stream().map(QueueName::of).toList();
        this.handler = Optional.ofNullable(properties.getHandler());
    }

    /**
     * @throws dev.baton.bootstrap.config.ConfigException when there is no handler bean, or
     *                                                    {@code baton.worker.handler} names none of them: the context
     *                                                    fails
     */
    @Override
    public synchronized void start() {
        if (worker.isEmpty() && !queues.isEmpty()) {
            worker = Optional.of(baton.start(new RunWorkerUseCase.Command(queues, Baton.defaultConsumer(),
                    baton.config().concurrency(), handler)));
        }
    }

    @Override
    public synchronized void stop() {
        worker.ifPresent(running -> running.stop(baton.config().grace()));
        worker = Optional.empty();
    }

    @Override
    public boolean isRunning() {
        return worker.isPresent();
    }
}
