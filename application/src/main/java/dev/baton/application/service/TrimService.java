package dev.baton.application.service;

import dev.baton.application.port.in.TrimQueueUseCase;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.Retention;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Trims a queue's acknowledged history to the retention, on demand (workers also trim on their schedule). */
public final class TrimService implements TrimQueueUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(TrimService.class);

    private final StreamTransport transport;
    private final Retention retention;
    private final Clock clock;

    public TrimService(StreamTransport transport, Retention retention, Clock clock) {
        this.transport = transport;
        this.retention = retention;
        this.clock = clock;
    }

    @Override
    public TrimReport trim(TrimQueueUseCase.Command command) {
        TrimOutcome outcome = transport.trim(command.queue(), retention, clock.instant());
        LOG.info("queue trimmed queue={} removed={} heldBack={} safeBound={}", command.queue(), outcome.removed(),
                outcome.heldBack(), outcome.safeBound());
        return new TrimReport(outcome.removed(), outcome.heldBack());
    }
}
