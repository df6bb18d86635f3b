package dev.baton.application.testing;

import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import java.time.Clock;

class InMemoryJobOutcomesTest extends JobOutcomesContract {
    private InMemoryExecutionLedger ledger;

    @Override
    protected ExecutionLedger createLedger(Clock clock) {
        ledger = new InMemoryExecutionLedger(clock);
        return ledger;
    }

    @Override
    protected JobOutcomes createOutcomes() {
        return ledger;
    }
}
