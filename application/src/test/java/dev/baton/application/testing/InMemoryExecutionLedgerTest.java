package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryExecutionLedgerTest extends ExecutionLedgerContract {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private InMemoryExecutionLedger ledger;

    @Override
    protected ExecutionLedger createLedger(Clock clock) {
        ledger = new InMemoryExecutionLedger(clock);
        return ledger;
    }

    @Override
    protected void recordEffect(LedgerTransaction transaction, String marker) {
        transaction.unwrap(InMemoryEffects.class).put(marker, "written");
    }

    @Override
    protected boolean effectRecorded(String marker) {
        return ledger.committedEffects().containsKey(marker);
    }

    @Test
    void anUnavailableLedgerRunsNothing() {
        ledger.setUnavailable(true);

        assertThat(ledger.execute(execution("down"), tx -> {
            tx.unwrap(InMemoryEffects.class).put("ran", "yes");
            return Optional.empty();
        })).isInstanceOf(LedgerOutcome.Unknown.class);
        assertThat(ledger.committedEffects()).isEmpty();

        ledger.setUnavailable(false);
        assertThat(ledger.execute(execution("down"), tx -> Optional.empty()))
                .isInstanceOf(LedgerOutcome.Committed.class);
    }

    @Test
    void aCrashAfterCommitHidesTheOutcomeButKeepsTheCompletion() {
        ledger.crashAfterNextCommit();

        assertThat(ledger.execute(execution("lost-ack"), tx -> {
            tx.unwrap(InMemoryEffects.class).increment("runs");
            return Optional.empty();
        })).isInstanceOf(LedgerOutcome.Unknown.class);

        assertThat(ledger.find(QueueName.of("effects"), JobId.of("lost-ack"))).isPresent();
        assertThat(ledger.execute(execution("lost-ack"), tx -> {
            tx.unwrap(InMemoryEffects.class).increment("runs");
            return Optional.empty();
        })).isInstanceOf(LedgerOutcome.AlreadyCompleted.class);
        assertThat(ledger.committedEffects()).containsEntry("runs", "1");
    }

    @Test
    void effectsReadTheirOwnWritesAndCommittedValues() {
        ledger.execute(execution("first"), tx -> {
            InMemoryEffects effects = tx.unwrap(InMemoryEffects.class);
            effects.increment("counter");
            assertThat(effects.increment("counter")).isEqualTo(2);
            return Optional.empty();
        });
        ledger.execute(execution("second"), tx -> {
            assertThat(tx.unwrap(InMemoryEffects.class).get("counter")).contains("2");
            tx.unwrap(InMemoryEffects.class).increment("counter");
            return Optional.empty();
        });

        assertThat(ledger.committedEffects()).containsEntry("counter", "3");
    }

    private static ExecutionLedger.Execution execution(String id) {
        Job job = Job.create(JobId.of(id), QueueName.of("effects"), "{}", NOW);
        return new ExecutionLedger.Execution(job, ConsumerName.of("w"), new DeliveryId("1-0"), 1, NOW);
    }
}
