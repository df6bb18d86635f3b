package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.QueueName;
import java.time.Duration;

/**
 * How one run of a job ended, as the ledger tells it; {@code took} is how long the run took, {@code trace} is told
 * how the worker settled it. Not the domain's attempt count ({@code Job.currentAttempt()}): one run of a delivery.
 */
record RunOutcome(HeldDelivery held, Delivery.Leased delivery, LedgerOutcome outcome, Duration took,
               JobTracing.AttemptTrace trace) implements Acknowledgements.Finished {

    /** A run that is not traced: a test's. */
    RunOutcome(HeldDelivery held, Delivery.Leased delivery, LedgerOutcome outcome, Duration took) {
        this(held, delivery, outcome, took, JobTracing.AttemptTrace.NONE);
    }

    /**
     * True when an operator cancelled the job: the ledger says so, or the attempt was cut short by the cancel (what
     * the handler threw then, its own failure or the interruption, is no failure to retry).
     */
    boolean cancelled() {
        return outcome instanceof LedgerOutcome.AlreadyCancelled
                || outcome instanceof LedgerOutcome.EffectFailed && held.isCancelled();
    }

    @Override
    public QueueName queue() {
        return delivery.queue();
    }

    @Override
    public DeliveryId id() {
        return delivery.id();
    }
}
