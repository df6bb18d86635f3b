package dev.baton.application.service;

import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.domain.Completion;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The worker's mode without a ledger: the effect runs without a transaction and nothing remembers that it ran, so a
 * redelivered job runs again. Handlers must be idempotent. Never reports a duplicate.
 */
public final class AtLeastOnceExecution implements ExecutionLedger {
    private static final LedgerTransaction NO_TRANSACTION = new LedgerTransaction() {
        @Override
        public <T> T unwrap(Class<T> type) {
            throw new UnsupportedOperationException("the worker runs at-least-once, without a ledger: there is no "
                    + "transaction to unwrap as " + type.getName());
        }
    };

    private final Clock clock;

    public AtLeastOnceExecution(Clock clock) {
        this.clock = clock;
    }

    @Override
    public LedgerOutcome execute(Execution execution, Effect effect) {
        Optional<String> result;
        try {
            result = effect.run(NO_TRANSACTION);
        } catch (Exception e) {
            return new LedgerOutcome.EffectFailed(e);
        }
        return new LedgerOutcome.Committed(new Completion(execution.job().id(), execution.job().queue(),
                execution.job().type(), execution.job().currentAttempt(), execution.consumer(),
                execution.deliveryId().value(), result, clock.instant()));
    }

    @Override
    public Optional<Completion> find(QueueName queue, JobId id) {
        return Optional.empty();
    }

    @Override
    public long countCompleted(QueueName queue) {
        return 0;
    }

    @Override
    public long forgetCompletedBefore(Instant cutoff) {
        return 0;
    }
}
