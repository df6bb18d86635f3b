package dev.baton.application.service;

import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.application.port.out.QueueAdministration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Pauses and resumes queues for operators; the workers read the pauses themselves (see docs/OPERATIONS.md). */
public final class QueuePauseService implements PauseQueueUseCase, ResumeQueueUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(QueuePauseService.class);

    private final QueueAdministration queues;

    public QueuePauseService(QueueAdministration queues) {
        this.queues = queues;
    }

    @Override
    public void pause(PauseQueueUseCase.Command command) {
        queues.pause(command.queue());
        LOG.info("queue paused: workers lease nothing from it until it is resumed queue={}", command.queue());
    }

    @Override
    public void resume(ResumeQueueUseCase.Command command) {
        queues.resume(command.queue());
        LOG.info("queue resumed queue={}", command.queue());
    }
}
