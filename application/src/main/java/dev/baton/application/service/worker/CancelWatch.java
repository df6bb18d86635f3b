package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches for an operator's cancels of the jobs this worker holds: once per {@link #CHECK_INTERVAL} it asks which are
 * cancelled, marks them ({@link CancelMarks}: their handler sees {@code JobContext.cancelled()}) and interrupts the
 * handlers whose {@code grace} has passed since.
 */
final class CancelWatch implements BackgroundLoop<CancelWatch.Watched> {
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(CancelWatch.class);

    private final CancelMarks marks;
    private final InFlight inFlight;
    private final Duration grace;
    private final ConsumerName consumer;

    CancelWatch(CancelMarks marks, InFlight inFlight, Duration grace, ConsumerName consumer) {
        this.marks = marks;
        this.inFlight = inFlight;
        this.grace = grace;
        this.consumer = consumer;
    }

    /**
     * What a pass did: the jobs it found cancelled since the last pass, and the cancelled ones past their grace, whose
     * handlers it interrupted (those still running).
     */
    record Watched(int cancelled, int pastGrace) {
    }

    @Override
    public Watched runOnce() {
        List<HeldDelivery> held = inFlight.all();
        Set<JobId> cancelled = marks.among(held.stream().filter(one -> !one.isCancelled()).toList());
        long now = System.nanoTime();
        int marked = 0;
        int pastGrace = 0;
        for (HeldDelivery one : held) {
            if (CancelMarks.isAmong(one, cancelled)) {
                one.cancel(now);
                marked++;
                LOG.info("job cancelled while it runs: its handler sees cancelled(), interrupted after {} consumer={}"
                        + " {} job={}", grace, consumer, one, ((Delivery.Leased) one.delivery()).job().id());
            } else if (one.cancelledLongerThan(grace, now)) {
                one.interruptHandler();
                pastGrace++;
            }
        }
        return new Watched(marked, pastGrace);
    }
}
