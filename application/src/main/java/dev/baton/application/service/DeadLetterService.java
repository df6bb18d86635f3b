package dev.baton.application.service;

import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.domain.StoredDeadLetter;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Lists, redrives and purges a queue's dead letters. */
public final class DeadLetterService
        implements ListDeadLettersUseCase, RedriveDeadLettersUseCase, PurgeDeadLettersUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterService.class);

    private final QueueAdministration queues;

    public DeadLetterService(QueueAdministration queues) {
        this.queues = queues;
    }

    @Override
    public List<StoredDeadLetter> list(ListDeadLettersUseCase.Command command) {
        return queues.deadLetters(command.queue(), command.after(), command.limit());
    }

    @Override
    public int redrive(RedriveDeadLettersUseCase.Command command) {
        int moved = queues.redrive(command.queue(), command.selection());
        LOG.info("dead letters redriven queue={} selection={} moved={}", command.queue(), command.selection(), moved);
        return moved;
    }

    @Override
    public int purge(PurgeDeadLettersUseCase.Command command) {
        int deleted = queues.purgeDeadLetters(command.queue(), command.selection());
        LOG.info("dead letters purged queue={} selection={} deleted={}", command.queue(), command.selection(),
                deleted);
        return deleted;
    }
}
