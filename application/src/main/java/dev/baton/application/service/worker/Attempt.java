package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.QueueName;
import java.time.Duration;

/** How one attempt at a job ended, as the ledger tells it; {@code took} is how long the attempt ran. */
record Attempt(HeldDelivery held, Delivery.Leased delivery, LedgerOutcome outcome, Duration took)
        implements Acknowledgements.Finished {

    @Override
    public QueueName queue() {
        return delivery.queue();
    }

    @Override
    public DeliveryId id() {
        return delivery.id();
    }
}
