package dev.baton.application.service;

import dev.baton.application.port.in.TrimQueueUseCase;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.Retention;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Trims a queue's acknowledged history to the retention, on demand (workers also trim on their schedule). */
public final class TrimService implements TrimQueueUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(TrimService.class);

    private final QueueMaintenance maintenance;
    private final Retention retention;
    private final Clock clock;

    public TrimService(QueueMaintenance maintenance, Retention retention, Clock clock) {
        this.maintenance = maintenance;
        this.retention = retention;
        this.clock = clock;
    }

    @Override
    public TrimReport trim(TrimQueueUseCase.Command command) {
        TrimOutcome outcome = maintenance.trim(command.queue(), retention, clock.instant());
        LOG.info("queue trimmed queue={} removed={} heldBack={} keptFrom={}", command.queue(), outcome.removed(),
                outcome.heldBack(), outcome.keptFrom());
        return new TrimReport(outcome.removed(), outcome.heldBack());
    }
}
