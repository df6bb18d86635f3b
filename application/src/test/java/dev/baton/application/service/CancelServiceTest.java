package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.in.CancelJobUseCase.Answer;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CancelService}: the ledger's answer first, then the transport's write, on the in-memory adapters. */
class CancelServiceTest {
    private static final QueueName QUEUE = QueueName.of("reports");

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-11-29T12:00:00.123456789Z"));
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(clock);
    private final InMemoryExecutionLedger ledger = new InMemoryExecutionLedger(clock);

    @Test
    void aDeadOrPurgedJobIsToldSoAndTheTransportIsNotTold() {
        ledger.recordDead(dead("dead"));
        ledger.recordDead(dead("purged"));
        ledger.recordPurged(QUEUE, List.of("purged"), clock.instant());
        CancelService cancels = new CancelService(ledger, transport, clock);

        assertThat(cancel(cancels, "dead")).isEqualTo(Answer.ALREADY_DEAD);
        assertThat(cancel(cancels, "purged")).isEqualTo(Answer.ALREADY_PURGED);
        assertThat(Answer.ALREADY_DEAD.isOtherwiseTerminal()).isTrue();
        assertThat(Answer.ALREADY_CANCELLED.isOtherwiseTerminal()).isFalse();
        assertThat(transport.cancelled(QUEUE, List.of(JobId.of("dead"), JobId.of("purged")))).isEmpty();
    }

    @Test
    void withoutALedgerTheTransportsWriteIsTheAnswer() {
        CancelService cancels = new CancelService(JobOutcomes.NOT_RECORDED, transport, clock);

        assertThat(cancel(cancels, "job")).isEqualTo(Answer.CANCELLED);
        assertThat(cancel(cancels, "job")).isEqualTo(Answer.ALREADY_CANCELLED);
        assertThat(transport.cancelled(QUEUE, List.of(JobId.of("job")))).containsExactly(JobId.of("job"));
    }

    @Test
    void aLedgerThatFailsCancelsNothingAnywhere() {
        ledger.setUnavailable(true);
        CancelService cancels = new CancelService(ledger, transport, clock);

        assertThatThrownBy(() -> cancel(cancels, "job")).isInstanceOf(LedgerUnavailableException.class);
        assertThat(transport.cancelled(QUEUE, List.of(JobId.of("job")))).as("the ledger first").isEmpty();
    }

    private static Answer cancel(CancelService cancels, String id) {
        return cancels.cancel(new CancelJobUseCase.Command(QUEUE, JobId.of(id)));
    }

    private DeadLetterRecord dead(String id) {
        return new DeadLetterRecord(id, QUEUE, DeadLetterReason.EXHAUSTED, JobError.permanent("io", "reset"), 3,
                ConsumerName.of("w1"), "1-0", clock.instant());
    }
}
