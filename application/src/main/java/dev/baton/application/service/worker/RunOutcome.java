package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.LedgerOutcome;
import java.time.Duration;

/**
 * How one run of a job ended, as the ledger tells it; {@code took} is how long the run took, {@code trace} is told
 * how the worker settled it. Not the domain's attempt count ({@code Job.currentAttempt()}): one run of a delivery.
 */
record RunOutcome(HeldDelivery held, Delivery.Leased delivery, LedgerOutcome outcome, Duration took,
                  JobTracing.AttemptTrace trace) {

    /**
     * True when an operator cancelled the job: the ledger says so, or the run was cut short by the cancel (what the
     * handler threw then, its own failure or the interruption, is no failure to retry).
     */
    boolean cancelled() {
        return outcome instanceof LedgerOutcome.AlreadyCancelled
                || outcome instanceof LedgerOutcome.EffectFailed && held.isCancelled();
    }
}
