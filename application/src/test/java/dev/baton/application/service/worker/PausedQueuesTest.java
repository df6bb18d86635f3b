package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.application.testing.MutableClock;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PausedQueuesTest {
    private final InMemoryStreamTransport transport = new InMemoryStreamTransport(MutableClock.at(Instant.EPOCH));
    private final QueueName reports = QueueName.of("reports");
    private final QueueName mail = QueueName.of("mail");
    private final PausedQueues pauses = new PausedQueues(transport, List.of(reports, mail), ConsumerName.of("w1"));

    @Test
    void aRefreshReadsThePausesOfTheWorkersQueuesOnly() {
        transport.pause(reports);
        transport.pause(QueueName.of("elsewhere"));

        pauses.refresh();

        assertThat(pauses.current()).containsExactly(reports);
        assertThat(pauses.isPaused(reports)).isTrue();
        assertThat(pauses.isPaused(mail)).isFalse();
        assertThat(pauses.allPaused()).isFalse();
        transport.pause(mail);
        assertThat(pauses.allPaused()).as("not before the next read").isFalse();
        pauses.refresh();
        assertThat(pauses.allPaused()).isTrue();
    }

    @Test
    void aBlockingReadNeverOutlastsTheNextRead() {
        pauses.refresh();

        assertThat(pauses.blockUntilNextCheck(Duration.ofSeconds(10)))
                .isLessThanOrEqualTo(PausedQueues.CHECK_INTERVAL).isGreaterThanOrEqualTo(Duration.ofMillis(1));
        assertThat(pauses.blockUntilNextCheck(Duration.ofMillis(1))).isEqualTo(Duration.ofMillis(1));
    }
}
