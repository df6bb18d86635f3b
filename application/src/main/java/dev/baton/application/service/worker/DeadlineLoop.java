package dev.baton.application.service.worker;

import java.time.Duration;
import java.util.List;

/**
 * Times out the attempts past their deadline: a sweep over the held deliveries instead of a timer per attempt, which
 * cost a fast worker more than its jobs did. The jobs of one batch share a deadline, so they are all marked before any
 * is interrupted, and none starts its handler after the running one was interrupted.
 */
final class DeadlineLoop implements BackgroundLoop<DeadlineLoop.TimedOut> {
    private static final Duration MIN_INTERVAL = Duration.ofMillis(5);
    private static final Duration MAX_INTERVAL = Duration.ofMillis(500);

    private final InFlight inFlight;

    DeadlineLoop(InFlight inFlight) {
        this.inFlight = inFlight;
    }

    /** How often running attempts are checked against their deadline: a fiftieth of it, within 5 ms..500 ms. */
    static Duration interval(Duration jobTimeout) {
        Duration tick = jobTimeout.dividedBy(50);
        return tick.compareTo(MIN_INTERVAL) < 0 ? MIN_INTERVAL
                : tick.compareTo(MAX_INTERVAL) > 0 ? MAX_INTERVAL : tick;
    }

    /** What a pass did: the attempts it found past their deadline, timed out and interrupted. */
    record TimedOut(int attempts) {
    }

    @Override
    public TimedOut runOnce() {
        long now = System.nanoTime();
        List<HeldDelivery> overdue = inFlight.all().stream().filter(held -> held.overdueAt(now)).toList();
        overdue.forEach(HeldDelivery::timeOut);
        overdue.forEach(HeldDelivery::interruptHandler);
        return new TimedOut(overdue.size());
    }
}
