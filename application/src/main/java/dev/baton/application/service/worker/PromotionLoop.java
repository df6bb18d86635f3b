package dev.baton.application.service.worker;

import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Moves due jobs (retries, scheduled jobs) from the delayed set into the stream, every due one in each pass. */
final class PromotionLoop implements BackgroundLoop<PromotionLoop.Promoted> {
    /** Jobs per call: a large backlog is promoted in bounded calls, one after the other in the same pass. */
    static final int BATCH = 500;
    private static final Logger LOG = LoggerFactory.getLogger(PromotionLoop.class);

    private final QueueMaintenance maintenance;
    private final List<QueueName> queues;
    private final Clock clock;

    PromotionLoop(QueueMaintenance maintenance, List<QueueName> queues, Clock clock) {
        this.maintenance = maintenance;
        this.queues = List.copyOf(queues);
        this.clock = clock;
    }

    /** What a pass did: the due jobs it moved into the streams. */
    record Promoted(int moved) {
    }

    @Override
    public Promoted runOnce() {
        Instant now = clock.instant();
        int moved = 0;
        for (QueueName queue : queues) {
            int batch;
            do {
                batch = maintenance.promoteDue(queue, now, BATCH);
                moved += batch;
            } while (batch == BATCH);
        }
        Promoted promoted = new Promoted(moved);
        if (moved > 0) {
            LOG.debug("promoted due jobs queues={} {}", queues, promoted);
        }
        return promoted;
    }
}
