package dev.baton.application.service.worker;

import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.ConsumerName;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears how acknowledgements went: a job counts as completed (or as a duplicate, or cancelled) only once acknowledged,
 * and the worker stops holding it either way (its slot was freed when it was handed over).
 */
final class AcknowledgedHandOvers implements Acknowledgements.Listener<HandedOver> {
    private static final Logger LOG = LoggerFactory.getLogger(AcknowledgedHandOvers.class);

    private final InFlight inFlight;
    private final JobObserver observer;
    private final ConsumerName consumer;

    AcknowledgedHandOvers(InFlight inFlight, JobObserver observer, ConsumerName consumer) {
        this.inFlight = inFlight;
        this.observer = observer;
        this.consumer = consumer;
    }

    @Override
    public void acknowledged(List<HandedOver> finished) {
        finished.forEach(one -> one.acknowledged(observer));
        forget(finished);
    }

    @Override
    public void notAcknowledged(List<HandedOver> finished, RuntimeException failure) {
        // committed, so a redelivery finds the completion (exactly-once) or runs again (at-least-once)
        LOG.warn("could not acknowledge, left pending for redelivery consumer={} count={} first delivery={}: {}",
                consumer, finished.size(), finished.get(0).id(), failure.toString());
        forget(finished);
    }

    private void forget(List<HandedOver> finished) {
        inFlight.forget(finished.stream().map(HandedOver::held).toList());
    }
}
